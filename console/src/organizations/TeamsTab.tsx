import Cancel from '@mui/icons-material/Cancel';
import { Chip, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { EmptyState } from '../common/EmptyState';
import { PromptDialog } from '../common/PromptDialog';
import { usePageRefresh } from '../common/usePageRefresh';
import { CreateTeamButton } from './CreateTeamButton';
import { AddTeamMemberButton, RemoveTeamButton, RenameTeamButton } from './TeamActions';
import { memberName, useOrgAction } from './useOrgAction';

/** Who is being taken off which team (the confirmation keeps it while it closes). */
interface Removal {
  teamId: string;
  team: string;
  userId: string;
  name: string;
}

/**
 * Teams with their members: create, rename, remove; add a member of the organization, remove one (the chip's
 * delete icon, confirmed by name).
 */
export function TeamsTab() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const refresh = usePageRefresh();
  const [removal, setRemoval] = useState<Removal | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (!record) return null;
  const teams = record.teams ?? [];
  const byUser = new Map((record.members ?? []).map((m) => [m.userId, m]));
  const teamMembers = record.teamMembers ?? [];
  const target = { name: removal?.name ?? '', team: removal?.team ?? '' };

  return (
    <>
      <CreateTeamButton />
      {teams.length === 0 && <EmptyState message="resources.organizations.teams.empty" />}
      <Stack spacing={1} sx={{ mt: 1 }}>
        {teams.map((team) => {
          const members = teamMembers.filter((tm) => tm.teamId === team.id);
          const inTeam = new Set(members.map((tm) => tm.userId));
          return (
            <Paper key={team.id} variant="outlined" sx={{ p: 1.5 }} data-testid={`team-${team.name}`}>
              <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                <Typography variant="subtitle1" sx={{ flexGrow: 1 }}>
                  {team.name}
                </Typography>
                <AddTeamMemberButton team={team} inTeam={inTeam} />
                <RenameTeamButton team={team} />
                <RemoveTeamButton team={team} />
              </Stack>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
                {members.length === 0 && (
                  <Typography variant="body2" color="text.secondary">
                    {translate('resources.organizations.teams.no_members')}
                  </Typography>
                )}
                {members.map((tm) => {
                  const member = byUser.get(tm.userId);
                  const label = member ? memberName(member) : tm.userId;
                  return (
                    <Chip
                      key={tm.id}
                      label={label}
                      onDelete={
                        canManage
                          ? () => {
                              setRemoval({ teamId: team.id, team: team.name, userId: tm.userId, name: label });
                              setConfirming(true);
                            }
                          : undefined
                      }
                      deleteIcon={
                        <Cancel
                          aria-label={translate('resources.organizations.teams.remove_member', { name: label })}
                          role="button"
                        />
                      }
                    />
                  );
                })}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
      <PromptDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={translate('resources.organizations.teams.remove_member_title', target)}
        message={translate('resources.organizations.teams.remove_member_confirm', target)}
        color="error"
        onConfirm={() =>
          removal ? dataProvider.removeTeamMember(record.id, removal.teamId, removal.userId) : Promise.resolve()
        }
        success={() => translate('resources.organizations.teams.member_removed', target)}
        after={refresh}
      />
    </>
  );
}

import Cancel from '@mui/icons-material/Cancel';
import { Chip, Paper, Stack, Typography } from '@mui/material';
import { useNotify, useRefresh } from 'react-admin';
import { CreateTeamButton } from './CreateTeamButton';
import { EmptyState } from './EmptyState';
import { AddTeamMemberButton, RemoveTeamButton, RenameTeamButton } from './TeamActions';
import { memberName, useOrgAction } from './useOrgAction';

/** Teams with their members: create, rename, remove; add a member of the organization, remove one (chip delete). */
export function TeamsTab() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const teams = record.teams ?? [];
  const byUser = new Map((record.members ?? []).map((m) => [m.userId, m]));
  const teamMembers = record.teamMembers ?? [];

  const removeFromTeam = async (teamId: string, userId: string) => {
    try {
      await dataProvider.removeTeamMember(record.id, teamId, userId);
      notify('resources.organizations.teams.member_removed', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

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
                      onDelete={canManage ? () => removeFromTeam(team.id, tm.userId) : undefined}
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
    </>
  );
}

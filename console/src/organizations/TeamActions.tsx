import Delete from '@mui/icons-material/Delete';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import PersonAdd from '@mui/icons-material/PersonAdd';
import { DialogContentText, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import type { Team } from '../providers/dataProvider';
import { ActionButton } from '../users/ActionButton';
import { memberName, useOrgAction } from './useOrgAction';

export function RenameTeamButton({ team }: { team: Team }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const [name, setName] = useState(team.name);
  if (!record || !canManage) return null;
  return (
    <ActionButton
      label="resources.organizations.teams.rename"
      title={translate('resources.organizations.teams.rename_title', { name: team.name })}
      icon={<DriveFileRenameOutline />}
      success="resources.organizations.teams.renamed"
      onConfirm={() => dataProvider.renameTeam(record.id, team.id, name.trim()).then(() => undefined)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        defaultValue={team.name}
        label={translate('resources.organizations.fields.name')}
        onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'team-rename' } }}
      />
    </ActionButton>
  );
}

export function RemoveTeamButton({ team }: { team: Team }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  return (
    <ActionButton
      label="resources.organizations.teams.remove"
      title={translate('resources.organizations.teams.remove')}
      icon={<Delete />}
      color="error"
      success="resources.organizations.teams.removed"
      onConfirm={() => dataProvider.removeTeam(record.id, team.id)}
    >
      <DialogContentText>
        {translate('resources.organizations.teams.remove_confirm', { name: team.name })}
      </DialogContentText>
    </ActionButton>
  );
}

/** Adds one of the organization's members who is not in the team yet. */
export function AddTeamMemberButton({ team, inTeam }: { team: Team; inTeam: Set<string> }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const [userId, setUserId] = useState('');
  if (!record || !canManage) return null;
  const candidates = (record.members ?? []).filter((m) => !inTeam.has(m.userId));
  return (
    <ActionButton
      label="resources.organizations.teams.add_member"
      title={translate('resources.organizations.teams.add_member_title', { name: team.name })}
      icon={<PersonAdd />}
      disabled={candidates.length === 0}
      success="resources.organizations.teams.member_added"
      onConfirm={() => dataProvider.addTeamMember(record.id, team.id, userId)}
    >
      <TextField
        select
        fullWidth
        margin="dense"
        value={userId}
        label={translate('resources.organizations.teams.member')}
        onChange={(e) => setUserId(e.target.value)}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'team-member-select' } as object } }}
      >
        {candidates.map((m) => (
          <MenuItem key={m.userId} value={m.userId}>
            {memberName(m)} ({m.user?.email})
          </MenuItem>
        ))}
      </TextField>
    </ActionButton>
  );
}

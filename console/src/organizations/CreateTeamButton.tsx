import GroupAdd from '@mui/icons-material/GroupAdd';
import { TextField } from '@mui/material';
import { useState } from 'react';
import { ActionButton } from '../users/ActionButton';
import { useOrgAction } from './useOrgAction';

export function CreateTeamButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const [name, setName] = useState('');
  if (!record || !canManage) return null;
  return (
    <ActionButton
      label="resources.organizations.teams.create"
      title={translate('resources.organizations.teams.create')}
      icon={<GroupAdd />}
      success="resources.organizations.teams.created"
      onConfirm={() => dataProvider.createTeam(record.id, name.trim()).then(() => undefined)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        label={translate('resources.organizations.fields.name')}
        onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'team-name' } }}
      />
    </ActionButton>
  );
}

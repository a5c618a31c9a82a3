import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { TextField } from '@mui/material';
import { useState } from 'react';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

export function SetRoleButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  const [role, setRole] = useState('');
  if (!record) return null;
  return (
    <ActionButton
      label="resources.users.actions.set_role"
      title={translate('resources.users.actions.set_role_title', { name })}
      icon={<AdminPanelSettings />}
      success="resources.users.actions.role_set"
      onConfirm={() => dataProvider.setRole(record.id, role || record.role).then(() => undefined)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        label={translate('resources.users.fields.role')}
        helperText={translate('resources.users.actions.role_help')}
        defaultValue={record.role}
        onChange={(e) => setRole(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'role-input' } }}
      />
    </ActionButton>
  );
}

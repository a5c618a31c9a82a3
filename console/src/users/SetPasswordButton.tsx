import Password from '@mui/icons-material/Password';
import { TextField } from '@mui/material';
import { useState } from 'react';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

export function SetPasswordButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  const [password, setPassword] = useState('');
  if (!record) return null;
  return (
    <ActionButton
      label="resources.users.actions.set_password"
      title={translate('resources.users.actions.set_password_title', { name })}
      icon={<Password />}
      success="resources.users.actions.password_set"
      onConfirm={() => dataProvider.setUserPassword(record.id, password)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        type="password"
        autoComplete="new-password"
        label={translate('resources.users.actions.new_password')}
        onChange={(e) => setPassword(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'new-password' } }}
      />
    </ActionButton>
  );
}

import Block from '@mui/icons-material/Block';
import { TextField } from '@mui/material';
import { useState } from 'react';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

/** Ban with a reason and an expiry in seconds (empty: no expiry); shown only for users not banned. */
export function BanButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  const [reason, setReason] = useState('');
  const [expiresIn, setExpiresIn] = useState('');
  if (!record || record.banned) return null;
  return (
    <ActionButton
      label="resources.users.actions.ban"
      title={translate('resources.users.actions.ban_title', { name })}
      icon={<Block />}
      color="error"
      success="resources.users.actions.banned"
      onConfirm={() =>
        dataProvider
          .banUser(record.id, reason.trim() || undefined, expiresIn ? Number(expiresIn) : undefined)
          .then(() => undefined)
      }
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        label={translate('resources.users.actions.ban_reason')}
        onChange={(e) => setReason(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'ban-reason' } }}
      />
      <TextField
        fullWidth
        margin="dense"
        type="number"
        label={translate('resources.users.actions.ban_expires_in')}
        onChange={(e) => setExpiresIn(e.target.value)}
        slotProps={{ htmlInput: { min: 1, 'data-testid': 'ban-expires' } }}
      />
    </ActionButton>
  );
}

import PersonAdd from '@mui/icons-material/PersonAdd';
import { TextField } from '@mui/material';
import { useState } from 'react';
import { ActionButton } from '../users/ActionButton';
import { useOrgAction } from './useOrgAction';

/** invite-member as an operator: the invitation mail goes out with the operator as inviter. */
export function InviteButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  if (!record || !canManage) return null;
  return (
    <ActionButton
      label="resources.organizations.invitations.invite"
      title={translate('resources.organizations.invitations.invite_title', { organization: record.name })}
      icon={<PersonAdd />}
      success="resources.organizations.invitations.invited"
      onConfirm={() => dataProvider.inviteMember(record.id, email.trim(), role.trim()).then(() => undefined)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        type="email"
        label={translate('resources.organizations.fields.email')}
        onChange={(e) => setEmail(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'invite-email' } }}
      />
      <TextField
        fullWidth
        margin="dense"
        label={translate('resources.organizations.fields.role')}
        helperText={translate('resources.organizations.members.role_help')}
        defaultValue="member"
        onChange={(e) => setRole(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'invite-role' } }}
      />
    </ActionButton>
  );
}

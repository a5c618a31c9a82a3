import Cancel from '@mui/icons-material/Cancel';
import Send from '@mui/icons-material/Send';
import { DialogContentText, Stack } from '@mui/material';
import type { Invitation } from '../providers/dataProvider';
import { ActionButton } from '../users/ActionButton';
import { useOrgAction } from './useOrgAction';

/** Resend (extends the expiry and mails it again) and cancel, for a pending invitation. */
export function InvitationActions({ invitation }: { invitation: Invitation }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage || invitation.status !== 'pending') return null;
  const { email, role } = invitation;
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
      <ActionButton
        label="resources.organizations.invitations.resend"
        title={translate('resources.organizations.invitations.resend')}
        icon={<Send />}
        success="resources.organizations.invitations.resent"
        onConfirm={() => dataProvider.inviteMember(record.id, email, role, true).then(() => undefined)}
      >
        <DialogContentText>
          {translate('resources.organizations.invitations.resend_confirm', { email })}
        </DialogContentText>
      </ActionButton>
      <ActionButton
        label="resources.organizations.invitations.cancel"
        title={translate('resources.organizations.invitations.cancel')}
        icon={<Cancel />}
        color="error"
        success="resources.organizations.invitations.canceled"
        onConfirm={() => dataProvider.cancelInvitation(invitation.id).then(() => undefined)}
      >
        <DialogContentText>
          {translate('resources.organizations.invitations.cancel_confirm', { email })}
        </DialogContentText>
      </ActionButton>
    </Stack>
  );
}

import Cancel from '@mui/icons-material/Cancel';
import Send from '@mui/icons-material/Send';
import { Stack } from '@mui/material';
import { PromptButton } from '../common/PromptButton';
import type { Invitation } from '../providers/dataProvider';
import { useOrgAction } from './useOrgAction';

/** Resend (extends the expiry and mails it again) and cancel, for a pending invitation. */
export function InvitationActions({ invitation }: { invitation: Invitation }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage || invitation.status !== 'pending') return null;
  const { email, role } = invitation;
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
      <PromptButton
        label="resources.organizations.invitations.resend"
        title={translate('resources.organizations.invitations.resend_title', { email })}
        message={translate('resources.organizations.invitations.resend_confirm', { email })}
        icon={<Send />}
        onConfirm={() => dataProvider.inviteMember(record.id, email, role, true)}
        success={() => translate('resources.organizations.invitations.resent', { email })}
      />
      <PromptButton
        label="resources.organizations.invitations.cancel"
        title={translate('resources.organizations.invitations.cancel_title', { email })}
        message={translate('resources.organizations.invitations.cancel_confirm', { email })}
        icon={<Cancel />}
        color="error"
        onConfirm={() => dataProvider.cancelInvitation(invitation.id)}
        success={() => translate('resources.organizations.invitations.canceled', { email })}
      />
    </Stack>
  );
}

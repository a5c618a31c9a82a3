import PersonAdd from '@mui/icons-material/PersonAdd';
import { PromptButton } from '../common/PromptButton';
import { useOrgAction } from './useOrgAction';

/** invite-member as an operator: the invitation mail goes out with the operator as inviter. */
export function InviteButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const organization = record.name;
  return (
    <PromptButton
      label="resources.organizations.invitations.invite"
      title={translate('resources.organizations.invitations.invite_title', { organization })}
      icon={<PersonAdd />}
      fields={[
        {
          name: 'email',
          label: translate('resources.organizations.fields.email'),
          type: 'email',
          required: true,
          testId: 'invite-email',
        },
        {
          name: 'role',
          label: translate('resources.organizations.fields.role'),
          helperText: translate('resources.organizations.members.role_help'),
          required: true,
          testId: 'invite-role',
        },
      ]}
      initial={{ role: 'member' }}
      onConfirm={({ email, role }) => dataProvider.inviteMember(record.id, email.trim(), role.trim())}
      success={({ email, role }) =>
        translate('resources.organizations.invitations.invited', {
          organization,
          email: email.trim(),
          role: role.trim(),
        })
      }
    />
  );
}

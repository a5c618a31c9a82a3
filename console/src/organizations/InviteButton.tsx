import PersonAdd from '@mui/icons-material/PersonAdd';
import { PromptButton } from '../common/PromptButton';
import { roleField } from '../common/roleField';
import { useRoles } from '../common/useRoles';
import { useOrgAction } from './useOrgAction';

/** The role an invitation dialog opens with. */
const INVITED_AS = 'member';

/**
 * invite-member as an operator: an email and one or more organization roles, picked (member at each opening); the
 * invitation mail goes out with the operator as inviter.
 */
export function InviteButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const { organizationRoles } = useRoles();
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
        roleField({
          name: 'role',
          label: translate('resources.organizations.fields.role'),
          names: organizationRoles,
          current: INVITED_AS,
          multiple: true,
          pickHelp: translate('resources.organizations.members.role_pick_help'),
          typeHelp: translate('resources.organizations.members.role_help'),
          required: true,
          testId: 'invite-role',
        }),
      ]}
      initial={{ role: INVITED_AS }}
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

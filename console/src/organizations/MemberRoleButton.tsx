import Edit from '@mui/icons-material/Edit';
import { PromptButton } from '../common/PromptButton';
import { roleField } from '../common/roleField';
import { useRoles } from '../common/useRoles';
import type { Member } from '../providers/dataProvider';
import { memberEmail, useOrgAction } from './useOrgAction';

/**
 * update-member-role as an operator: one or more of the configured organization roles, picked; the dialog opens
 * with the member's current role every time.
 */
export function MemberRoleButton({ member }: { member: Member }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const { organizationRoles } = useRoles();
  if (!record || !canManage) return null;
  const target = { email: memberEmail(member), organization: record.name };
  return (
    <PromptButton
      label="resources.organizations.members.change_role"
      title={translate('resources.organizations.members.change_role_title', target)}
      icon={<Edit />}
      fields={[
        roleField({
          name: 'role',
          label: translate('resources.organizations.fields.role'),
          names: organizationRoles,
          current: member.role,
          multiple: true,
          pickHelp: translate('resources.organizations.members.role_pick_help'),
          typeHelp: translate('resources.organizations.members.role_help'),
          required: true,
          testId: 'member-role-input',
        }),
      ]}
      initial={{ role: member.role }}
      onConfirm={({ role }) => dataProvider.updateMemberRole(record.id, member.id, role.trim())}
      success={({ role }) =>
        translate('resources.organizations.members.role_changed', { ...target, role: role.trim() })
      }
    />
  );
}

import Edit from '@mui/icons-material/Edit';
import { PromptButton } from '../common/PromptButton';
import type { Member } from '../providers/dataProvider';
import { memberEmail, useOrgAction } from './useOrgAction';

/** update-member-role as an operator; the dialog opens with the member's current role every time. */
export function MemberRoleButton({ member }: { member: Member }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const target = { email: memberEmail(member), organization: record.name };
  return (
    <PromptButton
      label="resources.organizations.members.change_role"
      title={translate('resources.organizations.members.change_role_title', target)}
      icon={<Edit />}
      fields={[
        {
          name: 'role',
          label: translate('resources.organizations.fields.role'),
          helperText: translate('resources.organizations.members.role_help'),
          required: true,
          testId: 'member-role-input',
        },
      ]}
      initial={{ role: member.role }}
      onConfirm={({ role }) => dataProvider.updateMemberRole(record.id, member.id, role.trim())}
      success={({ role }) =>
        translate('resources.organizations.members.role_changed', { ...target, role: role.trim() })
      }
    />
  );
}

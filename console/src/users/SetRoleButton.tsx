import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { PromptButton } from '../common/PromptButton';
import { roleField } from '../common/roleField';
import { useRoles } from '../common/useRoles';
import { useUserAction } from './useUserAction';

/** set-role: one or more of the configured user roles, picked; the dialog opens with the user's role every time. */
export function SetRoleButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  const { userRoles } = useRoles();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.set_role"
      title={translate('resources.users.actions.set_role_title', { email })}
      icon={<AdminPanelSettings />}
      fields={[
        roleField({
          name: 'role',
          label: translate('resources.users.fields.role'),
          names: userRoles,
          current: record.role,
          multiple: true,
          pickHelp: translate('resources.users.actions.role_pick_help'),
          typeHelp: translate('resources.users.actions.role_help'),
          required: true,
          testId: 'role-input',
        }),
      ]}
      initial={{ role: record.role }}
      onConfirm={({ role }) => dataProvider.setRole(record.id, role.trim())}
      success={({ role }) => translate('resources.users.actions.role_set', { email, role: role.trim() })}
    />
  );
}

import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { PromptButton } from '../common/PromptButton';
import { useRoles } from '../common/useRoles';
import { userRoleField } from './userRoleField';
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
      fields={[userRoleField(translate, userRoles, record.role, 'role-input')]}
      initial={{ role: record.role }}
      onConfirm={({ role }) => dataProvider.setRole(record.id, role.trim())}
      success={({ role }) => translate('resources.users.actions.role_set', { email, role: role.trim() })}
    />
  );
}

import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** set-role: the dialog opens with the user's current role every time. */
export function SetRoleButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.set_role"
      title={translate('resources.users.actions.set_role_title', { email })}
      icon={<AdminPanelSettings />}
      fields={[
        {
          name: 'role',
          label: translate('resources.users.fields.role'),
          helperText: translate('resources.users.actions.role_help'),
          required: true,
          testId: 'role-input',
        },
      ]}
      initial={{ role: record.role }}
      onConfirm={({ role }) => dataProvider.setRole(record.id, role.trim())}
      success={({ role }) => translate('resources.users.actions.role_set', { email, role: role.trim() })}
    />
  );
}

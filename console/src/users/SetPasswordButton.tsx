import Password from '@mui/icons-material/Password';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** set-user-password: an empty field every time. */
export function SetPasswordButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.set_password"
      title={translate('resources.users.actions.set_password_title', { email })}
      icon={<Password />}
      fields={[
        {
          name: 'password',
          label: translate('resources.users.actions.new_password'),
          type: 'password',
          autoComplete: 'new-password',
          required: true,
          testId: 'new-password',
        },
      ]}
      onConfirm={({ password }) => dataProvider.setUserPassword(record.id, password)}
      success={() => translate('resources.users.actions.password_set', { email })}
    />
  );
}

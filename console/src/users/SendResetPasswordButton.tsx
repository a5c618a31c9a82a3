import LockReset from '@mui/icons-material/LockReset';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** admin/send-reset-password: mails the user the reset link they could ask for themselves. */
export function SendResetPasswordButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.send_reset"
      title={translate('resources.users.actions.send_reset_title', { email })}
      message={translate('resources.users.actions.send_reset_confirm', { email })}
      icon={<LockReset />}
      onConfirm={() => dataProvider.sendResetPassword(record.id)}
      success={() => translate('resources.users.actions.reset_sent', { email })}
      after={() => undefined}
    />
  );
}

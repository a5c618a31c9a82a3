import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** admin/send-verification-email; offered while the user's email is not verified (the API refuses it after). */
export function SendVerificationButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record || record.emailVerified) return null;
  return (
    <PromptButton
      label="resources.users.actions.send_verification"
      title={translate('resources.users.actions.send_verification_title', { email })}
      message={translate('resources.users.actions.send_verification_confirm', { email })}
      icon={<MarkEmailRead />}
      onConfirm={() => dataProvider.sendVerificationEmail(record.id)}
      success={() => translate('resources.users.actions.verification_sent', { email })}
      after={() => undefined}
    />
  );
}

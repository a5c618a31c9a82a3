import PhonelinkErase from '@mui/icons-material/PhonelinkErase';
import { useCanAccess } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import { resetConfirmation, secondFactorsOf } from './secondFactor';
import { useUserAction } from './useUserAction';

/**
 * admin/reset-two-factor: shown for a user with any second factor (the app or a passkey) to a role that may reset it
 * (`user: set-password`); asks first, naming the user and what goes (the app and its backup codes, the passkeys).
 */
export function ResetTwoFactorButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  const { canAccess = false } = useCanAccess({ resource: 'users', action: 'reset-two-factor' });
  const confirmation = record && resetConfirmation(secondFactorsOf(record), email);
  if (!record || !confirmation || !canAccess) return null;
  return (
    <PromptButton
      label="resources.users.actions.reset_two_factor"
      title={translate('resources.users.actions.reset_two_factor_title', { email })}
      message={translate(confirmation.key, confirmation.params)}
      icon={<PhonelinkErase />}
      color="warning"
      onConfirm={() => dataProvider.resetTwoFactor(record.id)}
      success={() => translate('resources.users.actions.two_factor_reset', { email })}
    />
  );
}

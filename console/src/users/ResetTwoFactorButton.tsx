import PhonelinkErase from '@mui/icons-material/PhonelinkErase';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** admin/reset-two-factor: shown only for a user with a second factor; asks first, naming the user. */
export function ResetTwoFactorButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record?.twoFactorEnabled) return null;
  return (
    <PromptButton
      label="resources.users.actions.reset_two_factor"
      title={translate('resources.users.actions.reset_two_factor_title', { email })}
      message={translate('resources.users.actions.reset_two_factor_confirm', { email })}
      icon={<PhonelinkErase />}
      color="warning"
      onConfirm={() => dataProvider.resetTwoFactor(record.id)}
      success={() => translate('resources.users.actions.two_factor_reset', { email })}
    />
  );
}

import Block from '@mui/icons-material/Block';
import { PromptButton } from '../common/PromptButton';
import { banFields, banRequest } from './banExpiry';
import { banState } from './banState';
import { useUserAction } from './useUserAction';

/**
 * Ban with a reason and an end picked as a length (an hour to 30 days, or never) or as a date and time, sent as
 * `banExpiresIn` seconds; shown while no ban holds (a lapsed one does not). The dialog opens empty every time.
 */
export function BanButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record || banState(record).active) return null;
  return (
    <PromptButton
      label="resources.users.actions.ban"
      title={translate('resources.users.actions.ban_title', { email })}
      message={translate('resources.users.actions.ban_confirm', { email })}
      icon={<Block />}
      color="error"
      fields={banFields(translate)}
      onConfirm={(values) => {
        const { reason, expiresIn } = banRequest(values, translate);
        return dataProvider.banUser(record.id, reason, expiresIn);
      }}
      success={() => translate('resources.users.actions.banned', { email })}
    />
  );
}

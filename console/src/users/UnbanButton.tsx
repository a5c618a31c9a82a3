import LockOpen from '@mui/icons-material/LockOpen';
import { PromptButton } from '../common/PromptButton';
import { banState } from './banState';
import { useUserAction } from './useUserAction';

/** unban-user; shown while a ban holds (a lapsed one ends by itself at the next sign-in). */
export function UnbanButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record || !banState(record).active) return null;
  return (
    <PromptButton
      label="resources.users.actions.unban"
      title={translate('resources.users.actions.unban_title', { email })}
      message={translate('resources.users.actions.unban_confirm', { email })}
      icon={<LockOpen />}
      onConfirm={() => dataProvider.unbanUser(record.id)}
      success={() => translate('resources.users.actions.unbanned', { email })}
    />
  );
}

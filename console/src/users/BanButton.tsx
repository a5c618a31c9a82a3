import Block from '@mui/icons-material/Block';
import { PromptButton } from '../common/PromptButton';
import { banState } from './banState';
import { useUserAction } from './useUserAction';

/** Ban with a reason and an expiry in seconds (empty: no expiry); shown while no ban holds (a lapsed one does not). */
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
      fields={[
        { name: 'reason', label: translate('resources.users.actions.ban_reason'), testId: 'ban-reason' },
        {
          name: 'expiresIn',
          label: translate('resources.users.actions.ban_expires_in'),
          type: 'number',
          min: 1,
          testId: 'ban-expires',
        },
      ]}
      onConfirm={({ reason, expiresIn }) =>
        dataProvider.banUser(record.id, reason.trim() || undefined, expiresIn ? Number(expiresIn) : undefined)
      }
      success={() => translate('resources.users.actions.banned', { email })}
    />
  );
}

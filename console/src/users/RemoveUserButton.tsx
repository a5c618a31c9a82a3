import Delete from '@mui/icons-material/Delete';
import { useRedirect } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** remove-user through the dataProvider's delete, then back to the list. */
export function RemoveUserButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  const redirect = useRedirect();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.remove"
      title={translate('resources.users.actions.remove_title', { email })}
      message={translate('resources.users.actions.remove_confirm', { email })}
      icon={<Delete />}
      color="error"
      onConfirm={() => dataProvider.delete('users', { id: record.id, previousData: record })}
      success={() => translate('resources.users.actions.removed', { email })}
      after={() => redirect('list', 'users')}
    />
  );
}

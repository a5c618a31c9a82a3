import Delete from '@mui/icons-material/Delete';
import { DialogContentText } from '@mui/material';
import { useRedirect } from 'react-admin';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

/** remove-user through the dataProvider's delete, then back to the list. */
export function RemoveUserButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  const redirect = useRedirect();
  if (!record) return null;
  return (
    <ActionButton
      label="resources.users.actions.remove"
      title={translate('resources.users.actions.remove')}
      icon={<Delete />}
      color="error"
      success="resources.users.actions.removed"
      onConfirm={() => dataProvider.delete('users', { id: record.id, previousData: record }).then(() => undefined)}
      after={() => redirect('list', 'users')}
    >
      <DialogContentText>{translate('resources.users.actions.remove_confirm', { name })}</DialogContentText>
    </ActionButton>
  );
}

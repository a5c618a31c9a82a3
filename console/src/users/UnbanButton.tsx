import LockOpen from '@mui/icons-material/LockOpen';
import { DialogContentText } from '@mui/material';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

export function UnbanButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  if (!record?.banned) return null;
  return (
    <ActionButton
      label="resources.users.actions.unban"
      title={translate('resources.users.actions.unban')}
      icon={<LockOpen />}
      success="resources.users.actions.unbanned"
      onConfirm={() => dataProvider.unbanUser(record.id).then(() => undefined)}
    >
      <DialogContentText>{translate('resources.users.actions.unban_confirm', { name })}</DialogContentText>
    </ActionButton>
  );
}

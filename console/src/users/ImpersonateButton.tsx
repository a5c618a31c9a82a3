import SupervisorAccount from '@mui/icons-material/SupervisorAccount';
import { DialogContentText } from '@mui/material';
import { ActionButton } from './ActionButton';
import { useUserAction } from './useUserAction';

/** Signs in as the user; the page reloads on the dashboard, where the banner offers Stop. */
export function ImpersonateButton() {
  const { record, dataProvider, translate, name } = useUserAction();
  if (!record) return null;
  return (
    <ActionButton
      label="resources.users.actions.impersonate"
      title={translate('resources.users.actions.impersonate')}
      icon={<SupervisorAccount />}
      color="warning"
      success="resources.users.actions.impersonate"
      onConfirm={() => dataProvider.impersonateUser(record.id).then(() => undefined)}
      after={() => {
        window.location.hash = '#/';
        window.location.reload();
      }}
    >
      <DialogContentText>{translate('resources.users.actions.impersonate_confirm', { name })}</DialogContentText>
    </ActionButton>
  );
}

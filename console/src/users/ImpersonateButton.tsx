import SupervisorAccount from '@mui/icons-material/SupervisorAccount';
import { PromptButton } from '../common/PromptButton';
import { useUserAction } from './useUserAction';

/** Signs in as the user; the page reloads on the dashboard, where the banner offers Stop. */
export function ImpersonateButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  if (!record) return null;
  return (
    <PromptButton
      label="resources.users.actions.impersonate"
      title={translate('resources.users.actions.impersonate_title', { email })}
      message={translate('resources.users.actions.impersonate_confirm', { email })}
      icon={<SupervisorAccount />}
      color="warning"
      onConfirm={() => dataProvider.impersonateUser(record.id)}
      success={() => translate('console.impersonation.started', { name: email })}
      after={() => {
        window.location.hash = '#/';
        window.location.reload();
      }}
    />
  );
}

import Delete from '@mui/icons-material/Delete';
import Key from '@mui/icons-material/Key';
import { useQueryClient } from '@tanstack/react-query';
import { EditButton, useCanAccess, useDataProvider, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { SecretAction } from '../webhooks/SecretAction';
import type { Application } from './applicationForm';

/** What every application action needs: the application, the named methods, i18n, and what the caller may do. */
function useApplicationAction() {
  const record = useRecordContext<Application>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  // A role that may read applications but not change them sees no action buttons (the API would refuse anyway).
  const { canAccess: canUpdate = false } = useCanAccess({ resource: 'applications', action: 'edit' });
  const { canAccess: canDelete = false } = useCanAccess({ resource: 'applications', action: 'delete' });
  return { record, dataProvider, translate, canUpdate, canDelete };
}

/** The edit page, for a caller who may update applications. */
export function EditApplicationButton() {
  const { record, canUpdate } = useApplicationAction();
  if (!record || !canUpdate) return null;
  return <EditButton />;
}

/**
 * admin/rotate-oauth-client-secret, asking first (the old secret keeps working for the grace period); the new one
 * shows once. A public application has no secret: no button.
 */
export function RotateApplicationSecretButton() {
  const { record, dataProvider, translate, canUpdate } = useApplicationAction();
  if (!record || !canUpdate || record.type !== 'confidential') return null;
  const { name } = record;
  return (
    <SecretAction
      label="resources.applications.rotate.button"
      icon={<Key />}
      color="warning"
      title={translate('resources.applications.rotate.title', { name })}
      message={translate('resources.applications.rotate.confirm', { name })}
      onConfirm={async () => {
        const { client, secret } = await dataProvider.rotateApplicationSecret(record.id);
        return {
          id: client.clientId,
          url: client.name,
          secret: secret ?? '',
          previousUntil: client.previousSecretExpiresAt,
        };
      }}
      success={() => translate('resources.applications.rotate.done', { name })}
      secretTexts="resources.applications.secret"
      secretTestId="application-secret"
    />
  );
}

/** admin/delete-oauth-client, asking first and naming the application; then back to the list. */
export function DeleteApplicationButton() {
  const { record, dataProvider, translate, canDelete } = useApplicationAction();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  if (!record || !canDelete) return null;
  const { name } = record;
  const leave = async () => {
    // The list reads again when shown (the deleted application's page is still mounted: nothing is fetched now).
    await queryClient.invalidateQueries({ queryKey: ['applications'], refetchType: 'none' });
    redirect('list', 'applications');
  };
  return (
    <PromptButton
      label="resources.applications.delete.button"
      icon={<Delete />}
      color="error"
      title={translate('resources.applications.delete.title', { name })}
      message={translate('resources.applications.delete.confirm', { name })}
      errorsInForm
      onConfirm={() => dataProvider.deleteApplication(record.id)}
      success={() => translate('resources.applications.delete.done', { name })}
      after={leave}
    />
  );
}

import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Key from '@mui/icons-material/Key';
import PauseCircle from '@mui/icons-material/PauseCircle';
import PlayCircle from '@mui/icons-material/PlayCircle';
import { useQueryClient } from '@tanstack/react-query';
import { useCanAccess, useDataProvider, useRedirect, useTranslate } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { endpointFields } from './endpointFields';
import { SecretAction } from './SecretAction';
import { useWebhookAction } from './useWebhookAction';
import { asEndpointValues, createBody, endpointChanges, endpointValues, NEW_ENDPOINT } from './webhookForm';

/** admin/create-webhook-endpoint; the secret shows once, then the new endpoint's page opens. */
export function CreateWebhookButton() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const redirect = useRedirect();
  const { canAccess = false } = useCanAccess({ resource: 'webhooks', action: 'create' });
  if (!canAccess) return null;
  return (
    <SecretAction
      label="resources.webhooks.create.button"
      icon={<Add />}
      title={translate('resources.webhooks.create.title')}
      message={translate('resources.webhooks.create.message')}
      fields={endpointFields(translate)}
      initial={{ ...NEW_ENDPOINT }}
      onConfirm={async (values) => {
        const { endpoint, secret } = await dataProvider.createWebhookEndpoint(createBody(asEndpointValues(values)));
        return { id: endpoint.id, url: endpoint.url, secret };
      }}
      success={(values) => translate('resources.webhooks.create.done', { url: values.url.trim() })}
      onDone={(id) => redirect('show', 'webhooks', id)}
    />
  );
}

/** admin/update-webhook-endpoint: opens with the stored values every time; only what changed is sent. */
export function EditWebhookButton() {
  const { record, dataProvider, translate, canUpdate } = useWebhookAction();
  if (!record || !canUpdate) return null;
  return (
    <PromptButton
      label="resources.webhooks.edit.button"
      icon={<Edit />}
      title={translate('resources.webhooks.edit.title', { url: record.url })}
      fields={endpointFields(translate)}
      initial={{ ...endpointValues(record) }}
      errorsInForm
      onConfirm={(values) =>
        dataProvider.updateWebhookEndpoint(record.id, endpointChanges(asEndpointValues(values), record))
      }
      success={(values) => translate('resources.webhooks.edit.done', { url: values.url.trim() })}
    />
  );
}

/** Enable or disable (update-webhook-endpoint's `enabled`), asking first. */
export function ToggleWebhookButton() {
  const { record, dataProvider, translate, canUpdate } = useWebhookAction();
  if (!record || !canUpdate) return null;
  const action = record.enabled ? 'disable' : 'enable';
  const { url } = record;
  return (
    <PromptButton
      label={`resources.webhooks.${action}.button`}
      icon={record.enabled ? <PauseCircle /> : <PlayCircle />}
      color={record.enabled ? 'warning' : 'primary'}
      title={translate(`resources.webhooks.${action}.title`, { url })}
      message={translate(`resources.webhooks.${action}.confirm`, { url })}
      errorsInForm
      onConfirm={() => dataProvider.updateWebhookEndpoint(record.id, { enabled: !record.enabled })}
      success={() => translate(`resources.webhooks.${action}.done`, { url })}
    />
  );
}

/** admin/rotate-webhook-secret, asking first (the old secret keeps working for the overlap); the new one once. */
export function RotateSecretButton() {
  const { record, dataProvider, translate, canUpdate } = useWebhookAction();
  if (!record || !canUpdate) return null;
  const { url } = record;
  return (
    <SecretAction
      label="resources.webhooks.rotate.button"
      icon={<Key />}
      color="warning"
      title={translate('resources.webhooks.rotate.title', { url })}
      message={translate('resources.webhooks.rotate.confirm', { url })}
      onConfirm={async () => {
        const { endpoint, secret } = await dataProvider.rotateWebhookSecret(record.id);
        return { id: endpoint.id, url: endpoint.url, secret, previousUntil: endpoint.previousSecretExpiresAt };
      }}
      success={() => translate('resources.webhooks.rotate.done', { url })}
    />
  );
}

/** admin/delete-webhook-endpoint, asking first and naming the URL; then back to the list. */
export function DeleteWebhookButton() {
  const { record, dataProvider, translate, canDelete } = useWebhookAction();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  if (!record || !canDelete) return null;
  const { url } = record;
  const leave = async () => {
    // The list reads again when shown (the deleted endpoint's page is still mounted: nothing is fetched now).
    await queryClient.invalidateQueries({ queryKey: ['webhooks'], refetchType: 'none' });
    redirect('list', 'webhooks');
  };
  return (
    <PromptButton
      label="resources.webhooks.delete.button"
      icon={<Delete />}
      color="error"
      title={translate('resources.webhooks.delete.title', { url })}
      message={translate('resources.webhooks.delete.confirm', { url })}
      errorsInForm
      onConfirm={() => dataProvider.deleteWebhookEndpoint(record.id)}
      success={() => translate('resources.webhooks.delete.done', { url })}
      after={leave}
    />
  );
}

import { useCanAccess, useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { WebhookEndpoint } from './webhookForm';

/** What every endpoint action needs: the endpoint, the named methods, i18n, and what the caller may do. */
export function useWebhookAction() {
  const record = useRecordContext<WebhookEndpoint>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  // A role that may read webhooks but not change them sees no action buttons (the API would refuse anyway).
  const { canAccess: canUpdate = false } = useCanAccess({ resource: 'webhooks', action: 'edit' });
  const { canAccess: canDelete = false } = useCanAccess({ resource: 'webhooks', action: 'delete' });
  return { record, dataProvider, translate, canUpdate, canDelete };
}

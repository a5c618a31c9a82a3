import type { Web } from '../../http/web';
import type { WebhookDeliveries } from './deliveries.service';
import type { WebhookEndpoints } from './endpoints.service';

/** What the webhook feature's route tables get: the shared `Web` and the feature's own services. */
export interface WebhookWeb extends Web {
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
}

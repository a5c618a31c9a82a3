import { type ResealCount, type ResealOptions, resealColumns } from '../../crypto/reseal';
import type { FeatureRoutes } from '../../http/web';
import type { OutboxHandler } from '../../outbox/outbox';
import { TargetPolicy } from '../../shared/target-policy';
import { webhookDeliveryRoutes } from './deliveries.routes';
import { WebhookDeliveries } from './deliveries.service';
import { type DeliveryDeps, secretContext, WebhookDelivery } from './delivery';
import type { WebhookFeatureDeps } from './deps';
import { webhookEndpointRoutes } from './endpoints.routes';
import { WebhookEndpoints } from './endpoints.service';
import { WEBHOOK_TOPIC } from './message';
import { createWebhookQueue, type WebhookQueue, webhookHandler } from './queue';
import { WebhookRepository } from './repository';
import { EndpointRouting } from './routing';

export type { AttemptOutcome, DeliveryLogger } from './delivery';
export type { WebhookAdminAccess, WebhookEventSource, WebhookFeatureDeps, WebhookOutbox } from './deps';
export { WEBHOOK_TOPIC, type WebhookJob } from './message';
export { startWebhookWorker, WEBHOOK_QUEUE_NAME, type WebhookQueue, type WebhookWorker } from './queue';
export type { EndpointRouting } from './routing';
export { sign, signatureHeader } from './signature';

/**
 * Signed webhooks on the audit trail's events (docs/webhooks.md). Operators register endpoints; each event an
 * enabled endpoint wants becomes, in the event's own transaction, an outbox row; the relay hands it to the webhook
 * queue (BullMQ and the workers, or this process without Redis), which POSTs it signed, retries it on a schedule
 * spanning a day and more, and logs every attempt. Its route table (admin feature on):
 *
 *   endpoints.routes    admin/create-webhook-endpoint · list-webhook-endpoints · update-webhook-endpoint ·
 *                       delete-webhook-endpoint · rotate-webhook-secret
 *   deliveries.routes   admin/list-webhook-deliveries · send-test-webhook · redeliver-webhook
 */
export interface WebhookFeature extends FeatureRoutes {
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
  /** The outbox's handler of the webhook topic (the composition root registers it). */
  handler: OutboxHandler;
  queue: WebhookQueue;
  /** Reloads the enabled endpoints every WEBHOOK_ENDPOINT_REFRESH_MS from now on. */
  start(): void;
  /** Stops the reloads and the queue (its attempts under way finish). */
  close(): Promise<void>;
  /** Seals the endpoints' signing secrets (current and previous) again under the current AUTH_SECRET. */
  reseal(options: ResealOptions): Promise<ResealCount>;
}

/** One delivery attempt's machinery, for the API's own queue and for the worker (src/worker.ts). */
export function createWebhookDelivery(
  deps: Omit<DeliveryDeps, 'repo' | 'policy'> & { production: boolean },
): WebhookDelivery {
  const { production, ...rest } = deps;
  return new WebhookDelivery({
    ...rest,
    repo: new WebhookRepository(deps.sql),
    policy: targetPolicy(deps.config, production),
  });
}

function targetPolicy(config: DeliveryDeps['config'], production: boolean): TargetPolicy {
  return new TargetPolicy(production, config.allowedTargets);
}

/**
 * Which enabled endpoints want each event, kept in memory and reloaded (routing.ts): its `follow` is the audit
 * writer's follower, so it is made before the writer (wiring.ts, and the worker, whose own events such as an
 * endpoint disabled for failing reach the endpoints that want them like any other). `start` begins the reloads.
 */
export function createWebhookRouting(
  deps: Pick<WebhookFeatureDeps, 'sql' | 'outbox' | 'config'> & { warn?: (message: string) => void },
): EndpointRouting {
  return new EndpointRouting(
    new WebhookRepository(deps.sql),
    deps.outbox,
    deps.config.webhook.endpointRefreshMs,
    deps.warn ?? (() => {}),
  );
}

export function createWebhookFeature(deps: WebhookFeatureDeps): WebhookFeature {
  const { sql, config, clock } = deps;
  const repo = new WebhookRepository(sql);
  const production = config.env === 'production';
  const policy = targetPolicy(config.webhook, production);
  const delivery = new WebhookDelivery({
    sql,
    repo,
    sealer: deps.sealer,
    clock,
    audit: deps.audit,
    policy,
    config: config.webhook,
    log: deps.log,
    observe: deps.observe,
  });
  const { routing } = deps;
  const queue = createWebhookQueue(config, deps.redis, delivery, deps.log, (key, state) =>
    deps.outbox.confirm(WEBHOOK_TOPIC, key, state),
  );
  const endpoints = new WebhookEndpoints({
    sql,
    repo,
    clock,
    sealer: deps.sealer,
    audit: deps.audit,
    admin: deps.admin,
    routing,
    policy,
    config: config.webhook,
  });
  const deliveries = new WebhookDeliveries({
    repo,
    endpoints,
    events: deps.events,
    outbox: deps.outbox,
    clock,
    retentionDays: config.webhook.deliveryRetentionDays,
  });
  return {
    endpoints,
    deliveries,
    queue,
    handler: webhookHandler(queue, config),
    start: () => routing.start(),
    reseal: (options) =>
      resealColumns(
        sql,
        deps.sealer,
        {
          label: 'webhook endpoint secrets',
          table: 'webhook_endpoints',
          key: 'id',
          columns: [
            { name: 'secret_sealed', context: secretContext },
            { name: 'previous_secret_sealed', context: secretContext },
          ],
        },
        options,
      ),
    async close() {
      routing.stop();
      await queue.close();
    },
    async routes(app, web) {
      if (!web.config.features.admin) return;
      const ctx = { ...web, endpoints, deliveries };
      await app.register(webhookEndpointRoutes, ctx);
      await app.register(webhookDeliveryRoutes, ctx);
    },
  };
}

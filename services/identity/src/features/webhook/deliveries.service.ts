import { isId, newId } from '../../crypto/random';
import { fail } from '../../errors';
import type { Clock } from '../../shared/clock';
import { drainBatches } from '../../shared/drain-batches';
import type { SessionWithUser } from '../../shared/views';
import type { WebhookEventSource } from './deps';
import type { WebhookEndpoints } from './endpoints.service';
import { eventJob, jobKey, messageBody, WEBHOOK_TOPIC, type WebhookJob } from './message';
import type { DeliveryPosition, DeliveryRow, WebhookRepository } from './repository';
import type { OutboxWriter } from './routing';
import { DEFAULT_DELIVERY_PAGE, type ListDeliveriesQuery, type WebhookDeliveryView } from './schemas';

const DAY_MS = 86_400_000;

export interface DeliveriesDeps {
  repo: WebhookRepository;
  endpoints: WebhookEndpoints;
  events: WebhookEventSource;
  outbox: OutboxWriter;
  clock: Clock;
  retentionDays: number;
}

/**
 * The delivery log and what operators send by hand (docs/webhooks.md): an endpoint's attempts, a test message,
 * and the redelivery of an event the endpoint was sent before (under the same webhook-id). Messages sent by hand
 * go through the outbox and the queue like any other, with the same retries.
 */
export class WebhookDeliveries {
  constructor(private readonly d: DeliveriesDeps) {}

  async list(
    auth: SessionWithUser,
    query: ListDeliveriesQuery,
  ): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }> {
    this.d.endpoints.demand(auth, { webhook: ['read'] }, 'NOT_ALLOWED_TO_READ_WEBHOOKS');
    const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
    if (query.eventId !== undefined && !isId(query.eventId))
      fail('VALIDATION_ERROR', [{ field: 'eventId', problem: 'is not an event id' }]);
    const endpoint = await this.d.endpoints.get(query.endpointId);
    const limit = query.limit ?? DEFAULT_DELIVERY_PAGE;
    const rows = await this.d.repo.deliveries(endpoint.id, { eventId: query.eventId, after }, limit);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      deliveries: page.map(deliveryView),
      nextCursor: more ? encodeCursor({ at: last.attemptedAt, id: last.id }) : null,
    };
  }

  /** A `webhook.test` message, new id, to the endpoint whether it is enabled or not. */
  async sendTest(auth: SessionWithUser, id: string): Promise<{ webhookId: string }> {
    this.d.endpoints.demand(auth, { webhook: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS');
    const endpoint = await this.d.endpoints.get(id);
    const messageId = newId();
    const timestamp = new Date(this.d.clock.now()).toISOString();
    const job: WebhookJob = {
      endpointId: endpoint.id,
      webhookId: `msg_${messageId}`,
      eventId: null,
      type: 'webhook.test',
      body: messageBody('webhook.test', timestamp, { endpointId: endpoint.id, test: true }),
      manual: true,
    };
    await this.d.outbox.add(WEBHOOK_TOPIC, `test.${messageId}.${endpoint.id}`, job);
    return { webhookId: job.webhookId };
  }

  /**
   * The event again, to an endpoint it was sent to before (its log still holds an attempt), with the same
   * webhook-id: it is the same message, so a receiver that keeps the ids it processed takes it once.
   */
  async redeliver(auth: SessionWithUser, id: string, eventId: string): Promise<{ webhookId: string }> {
    this.d.endpoints.demand(auth, { webhook: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS');
    const endpoint = await this.d.endpoints.get(id);
    const first = isId(eventId) ? await this.d.repo.firstAttempt(endpoint.id, eventId) : null;
    const event = first ? await this.d.events.findBefore(eventId, first) : null;
    if (!event) return fail('WEBHOOK_EVENT_NOT_FOUND');
    const job = eventJob(endpoint.id, event, true);
    await this.d.outbox.add(WEBHOOK_TOPIC, jobKey(job, `.again.${newId()}`), job);
    return { webhookId: job.webhookId };
  }

  /** Deletes log rows older than the retention (the expiry sweep); answers how many went. */
  prune(): Promise<number> {
    const cutoff = new Date(this.d.clock.now() - this.d.retentionDays * DAY_MS);
    return drainBatches((batch) => this.d.repo.pruneDeliveries(cutoff, batch));
  }
}

function deliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    webhookId: row.webhookId,
    eventType: row.eventType,
    attempt: row.attempt,
    status: row.status,
    responseCode: row.responseCode,
    durationMs: row.durationMs,
    error: row.error,
    attemptedAt: row.attemptedAt.toISOString(),
  };
}

function encodeCursor(position: DeliveryPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString('base64url');
}

function decodeCursor(cursor: string): DeliveryPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    Number.isNaN(Date.parse(decoded[0])) ||
    !isId(decoded[1])
  )
    return fail('VALIDATION_ERROR', [{ field: 'cursor', problem: 'is not a cursor of this list' }]);
  return { at: new Date(decoded[0]), id: decoded[1] };
}

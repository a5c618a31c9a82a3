import type { EventData } from '../audit';

/**
 * A webhook message as the outbox and the queues carry it (docs/webhooks.md). `body` is the exact text that is
 * signed and sent: every attempt sends the same bytes under the same `webhookId`.
 */
export interface WebhookJob {
  endpointId: string;
  /** `webhook-id`: `msg_` and the event's id, so every retry and every redelivery of an event share it. */
  webhookId: string;
  /** The audit event delivered; null for a test message. */
  eventId: string | null;
  type: string;
  body: string;
  /** Sent by an operator (test message, redelivery): delivered even to a disabled endpoint. */
  manual: boolean;
}

/** The outbox topic (and BullMQ queue) of webhook deliveries. */
export const WEBHOOK_TOPIC = 'webhook';

export const webhookIdOf = (eventId: string): string => `msg_${eventId}`;

/** Standard Webhooks' body: `{type, timestamp, data}`. */
export function messageBody(type: string, timestamp: string, data: unknown): string {
  return JSON.stringify({ type, timestamp, data });
}

/** The message of an event for one endpoint. */
export function eventJob(endpointId: string, event: EventData, manual = false): WebhookJob {
  return {
    endpointId,
    webhookId: webhookIdOf(event.id),
    eventId: event.id,
    type: event.type,
    body: messageBody(event.type, event.occurredAt, event),
    manual,
  };
}

/** The outbox key of a message: one row per event and endpoint (a redelivery adds its own suffix). */
export const jobKey = (job: WebhookJob, suffix = ''): string =>
  `${job.eventId ?? job.webhookId}.${job.endpointId}${suffix}`;

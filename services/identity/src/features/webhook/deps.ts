import type { Redis } from 'ioredis';
import type { Permissions } from '../../access';
import type { Config } from '../../config';
import type { Sealer } from '../../crypto/sealed';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import type { EventData } from '../audit';
import type { DeliveryLogger } from './delivery';
import type { EndpointRouting, OutboxWriter } from './routing';

/** The admin feature's access model, as far as the webhook routes ask it (its AdminAccess fits). */
export interface WebhookAdminAccess {
  can(auth: SessionWithUser, permissions: Permissions): boolean;
}

/** The audit trail as webhooks use it: one event by id, for a redelivery. */
export interface WebhookEventSource {
  findBefore(id: string, before: Date): Promise<EventData | null>;
}

/** The outbox as webhooks use it: writing messages, and hearing that this process's queue settled one. */
export interface WebhookOutbox extends OutboxWriter {
  confirm(topic: string, key: string, state: 'sent' | 'failed'): void;
}

/** What the webhook feature needs from outside. */
export interface WebhookFeatureDeps {
  sql: Sql;
  clock: Clock;
  config: Config;
  /** Present: messages go to BullMQ and the workers deliver; null: this process delivers them. */
  redis: Redis | null;
  /** Seals the endpoints' signing secrets at rest. */
  sealer: Sealer;
  /** Endpoint changes are audit events, recorded in their transaction. */
  audit: AuditLog;
  events: WebhookEventSource;
  /** The audit writer's follower, made first (`createWebhookRouting`) so the writer is made with it. */
  routing: EndpointRouting;
  outbox: WebhookOutbox;
  /** The admin feature's access model; null when that feature is off (no routes then). */
  admin: WebhookAdminAccess | null;
  log: DeliveryLogger;
  /** Each delivery attempt's outcome and duration (metrics). */
  observe?: (outcome: 'succeeded' | 'failed', seconds: number) => void;
}

import { createHmac } from 'node:crypto';
import { isId, newId } from '../../crypto/random';
import { type AuditEvent, type AuditLog, type AuditTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { normalizeEmail } from '../../shared/email';
import type { Sql } from '../../shared/sql';
import type { EventRepository } from './events.repository';
import type { EventData, EventView } from './schemas';

export { DEFAULT_PAGE, MAX_PAGE } from './schemas';

/**
 * Detail keys that could hold a secret: the writer refuses them (a bug, never written). A passkey's id
 * (`passkeyId`) names a public credential, not a pass.
 */
const SECRET_KEY = /pass(?!key)(word)?|token|secret|hash|cookie|credential|^key$/i;
/** Details are a few facts, not a copy of the request. */
const MAX_DETAILS_CHARS = 2048;

/** An event as written: what was recorded, with its id and time. */
export type RecordedEvent = AuditEvent & { id: string; occurredAt: string };

/**
 * A recorded event as it is stored and as list-events answers it (without the names operators get): the actor and
 * the request its source, the actor's id when it has one. A webhook message's `data` (docs/webhooks.md).
 */
export function eventData(event: RecordedEvent): EventData {
  const { actor } = event.source;
  return {
    id: event.id,
    occurredAt: event.occurredAt,
    type: event.type,
    actor: {
      type: actor.type,
      id: 'id' in actor ? actor.id : null,
      impersonatorId: (actor.type === 'user' && actor.impersonatorId) || null,
    },
    target: event.target ? { type: event.target.type, id: event.target.id } : null,
    organizationId: event.organizationId ?? null,
    ipAddress: event.source.ipAddress,
    userAgent: event.source.userAgent,
    requestId: event.source.requestId,
    details: { ...(event.details ?? {}) },
  };
}

/**
 * Work that must commit with an event or not at all, run in the event's transaction right after its insert: the
 * place for a webhook delivery (an outbox row, `outbox.add(topic, key, payload, tx)`, keyed by the event's id).
 */
export type EventFollower = (tx: Sql, event: RecordedEvent) => Promise<void>;

export interface EventPage {
  events: EventView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * The audit trail's writer (docs/audit.md): every feature records through it, in the transaction of its change.
 * The work that follows each event in that transaction (the webhooks' routing) is given to it when it is made
 * (wiring.ts), never added later.
 */
export class AuditEvents implements AuditLog {
  constructor(
    private readonly repo: EventRepository,
    private readonly clock: Clock,
    private readonly emailKey: Buffer,
    private readonly followers: readonly EventFollower[],
  ) {}

  /** One row in `tx`: it commits with the change or not at all. Its time is the service's (database) clock. */
  async record(tx: Sql, event: AuditEvent): Promise<void> {
    checkDetails(event.type, event.details ?? {});
    const occurredAt = new Date(this.clock.now());
    const recorded: RecordedEvent = { ...event, id: newId(), occurredAt: occurredAt.toISOString() };
    const data = eventData(recorded);
    await this.repo.insert(tx, {
      id: data.id,
      occurredAt,
      type: data.type,
      actorType: data.actor.type,
      actorId: data.actor.id,
      impersonatorId: data.actor.impersonatorId,
      targetType: data.target?.type ?? null,
      targetId: data.target?.id ?? null,
      organizationId: data.organizationId,
      ipAddress: data.ipAddress,
      userAgent: data.userAgent,
      requestId: data.requestId,
      details: data.details,
    });
    for (const follow of this.followers) await follow(tx, recorded);
  }

  /**
   * The target of events about an email address that has no user to name (a failed sign-in): a keyed digest of the
   * normalized address, so the trail never holds the address and a copy of the table cannot be matched against a
   * list of addresses.
   */
  emailTarget(email: string): AuditTarget {
    return { type: 'email', id: createHmac('sha256', this.emailKey).update(normalizeEmail(email)).digest('base64url') };
  }

  /** One event by id, written at or before `before` (see EventRepository.findBefore); null when not there. */
  findBefore(id: string, before: Date): Promise<EventData | null> {
    return isId(id) ? this.repo.findBefore(id, before) : Promise.resolve(null);
  }
}

function checkDetails(type: string, details: Record<string, unknown>): void {
  for (const key of Object.keys(details))
    if (SECRET_KEY.test(key)) throw new Error(`audit event ${type}: detail "${key}" may hold a secret`);
  if (JSON.stringify(details).length > MAX_DETAILS_CHARS) throw new Error(`audit event ${type}: details too large`);
}

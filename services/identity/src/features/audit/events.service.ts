import { createHmac } from 'node:crypto';
import { isId, newId } from '../../crypto/random';
import { fail } from '../../errors';
import { AUDIT_EVENT_TYPES, type AuditEvent, type AuditLog, type AuditTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { normalizeEmail } from '../../shared/email';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import { decodeCursor, encodeCursor } from './cursor';
import type { AdminAuditAccess, OrganizationAuditAccess } from './deps';
import type { EventFilter, EventRepository } from './events.repository';
import type { EventData, EventView, ListEventsQuery } from './schemas';

/**
 * Detail keys that could hold a secret: the writer refuses them (a bug, never written). A passkey's id
 * (`passkeyId`) names a public credential, not a pass.
 */
const SECRET_KEY = /pass(?!key)(word)?|token|secret|hash|cookie|credential|^key$/i;
/** Details are a few facts, not a copy of the request. */
const MAX_DETAILS_CHARS = 2048;

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

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
 * The audit trail (docs/audit.md): the writer every feature records through, in the transaction of its change,
 * and list-events for operators (every event) and an organization's owners and admins (their organization's).
 */
export class AuditEvents implements AuditLog {
  /** Named hook point for work that follows each event in its transaction (none today; webhooks later). */
  readonly followers: EventFollower[] = [];

  constructor(
    private readonly repo: EventRepository,
    private readonly clock: Clock,
    private readonly emailKey: Buffer,
    private readonly access: {
      admin: () => AdminAuditAccess | null;
      organization: () => OrganizationAuditAccess | null;
    },
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

  /** admin/list-events: every event, for holders of the admin `audit: read` permission. */
  async listAll(auth: SessionWithUser, query: ListEventsQuery): Promise<EventPage> {
    const admin = this.access.admin();
    if (!admin?.can(auth, { audit: ['read'] })) fail('NOT_ALLOWED_TO_LIST_EVENTS');
    let filters = query;
    if (query.email !== undefined) {
      if (query.targetId !== undefined || query.targetType !== undefined)
        fail('VALIDATION_ERROR', [{ field: 'email', problem: 'names a target: give email or targetType/targetId' }]);
      const target = this.emailTarget(query.email);
      filters = { ...query, targetType: target.type, targetId: target.id };
    }
    return this.named(await this.page(this.filterOf(filters)));
  }

  /**
   * organization/list-events: the events of one organization (the given one, else the active one), for members
   * whose role holds the organization `audit: read` permission (owner and admin by default, docs/SPEC.md §6).
   */
  async listOrganization(auth: SessionWithUser, query: ListEventsQuery): Promise<EventPage> {
    const organizations = this.access.organization() ?? fail('ORGANIZATION_NOT_FOUND');
    const organizationId = query.organizationId || auth.session.activeOrganizationId || fail('NO_ACTIVE_ORGANIZATION');
    if (!isId(organizationId)) fail('ORGANIZATION_NOT_FOUND');
    const member = await organizations.self(organizationId, auth.user, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    if (!organizations.can(member, { audit: ['read'] })) fail('NOT_ALLOWED_TO_READ_ORGANIZATION_EVENTS');
    return this.page(this.filterOf({ ...query, organizationId }));
  }

  /** The checked filter; null when the type prefix names no event type (the answer is then empty). */
  private filterOf(query: ListEventsQuery): EventFilter | null {
    const invalid = (field: string, problem: string) => fail('VALIDATION_ERROR', [{ field, problem }]);
    const filter: EventFilter = { limit: query.limit ?? DEFAULT_PAGE };
    if (query.actorId !== undefined) filter.actorId = query.actorId;
    if (query.targetId !== undefined) filter.targetId = query.targetId;
    if (query.targetType !== undefined) filter.targetType = query.targetType;
    if (query.organizationId !== undefined) {
      if (!isId(query.organizationId)) invalid('organizationId', 'is not an organization id');
      filter.organizationId = query.organizationId;
    }
    if (query.from !== undefined) filter.from = new Date(query.from);
    if (query.to !== undefined) filter.to = new Date(query.to);
    if (query.cursor !== undefined) filter.after = decodeCursor(query.cursor);
    if (query.type !== undefined) {
      const types = AUDIT_EVENT_TYPES.filter((type) => type.startsWith(query.type!));
      if (!types.length) return null;
      if (types.length < AUDIT_EVENT_TYPES.length) filter.types = types;
    }
    return filter;
  }

  /**
   * The page with each user actor's email and name (and the email of the admin behind an impersonation), read in one
   * lookup for the whole page: operators recognise people, not ids. A user since deleted reads null. Only operators
   * get them: an organization's trail may name operators and non-members, whose addresses its admins do not see.
   */
  private async named(page: EventPage): Promise<EventPage> {
    const ids = new Set<string>();
    for (const { actor } of page.events) {
      if (actor.type === 'user' && actor.id && isId(actor.id)) ids.add(actor.id);
      if (actor.impersonatorId && isId(actor.impersonatorId)) ids.add(actor.impersonatorId);
    }
    const users = await this.repo.usersByIds([...ids]);
    const events = page.events.map((event) => {
      const user = event.actor.type === 'user' && event.actor.id ? users.get(event.actor.id) : undefined;
      const impersonator = event.actor.impersonatorId ? users.get(event.actor.impersonatorId) : undefined;
      return {
        ...event,
        actor: {
          ...event.actor,
          email: user?.email ?? null,
          name: user?.name ?? null,
          impersonatorEmail: impersonator?.email ?? null,
        },
      };
    });
    return { ...page, events };
  }

  private async page(filter: EventFilter | null): Promise<EventPage> {
    if (!filter) return { events: [], nextCursor: null };
    const rows = await this.repo.list(filter);
    const more = rows.length > filter.limit;
    const page = more ? rows.slice(0, filter.limit) : rows;
    return {
      events: page.map((r) => r.view),
      nextCursor: more ? encodeCursor(page[page.length - 1].position) : null,
    };
  }
}

function checkDetails(type: string, details: Record<string, unknown>): void {
  for (const key of Object.keys(details))
    if (SECRET_KEY.test(key)) throw new Error(`audit event ${type}: detail "${key}" may hold a secret`);
  if (JSON.stringify(details).length > MAX_DETAILS_CHARS) throw new Error(`audit event ${type}: details too large`);
}

import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import { AUDIT_EVENT_TYPES, type AuditTarget } from '../../shared/audit';
import type { SessionWithUser } from '../../shared/views';
import { decodeCursor, encodeCursor } from './cursor';
import type { AdminAuditAccess, OrganizationAuditAccess } from './deps';
import type { EventFilter, EventRepository } from './events.repository';
import { DEFAULT_PAGE, type EventPage } from './events.service';
import type { ListEventsQuery } from './schemas';

/**
 * list-events (docs/audit.md): for operators every event, for an organization's owners and admins their
 * organization's. Built after the admin and organization features, whose permission checks it asks (null when
 * that feature is off).
 */
export class EventReads {
  constructor(
    private readonly repo: EventRepository,
    private readonly emailTarget: (email: string) => AuditTarget,
    private readonly access: { admin: AdminAuditAccess | null; organization: OrganizationAuditAccess | null },
  ) {}

  /** admin/list-events: every event, for holders of the admin `audit: read` permission. */
  async listAll(auth: SessionWithUser, query: ListEventsQuery): Promise<EventPage> {
    const { admin } = this.access;
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
    const organizations = this.access.organization ?? fail('ORGANIZATION_NOT_FOUND');
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

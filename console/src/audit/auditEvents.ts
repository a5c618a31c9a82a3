import type { components, paths } from '../api/schema';

/** One event of the trail and one page of list-events (openapi.yaml). */
export type AuditEvent = components['schemas']['AuditEvent'];
export type AuditEventPage = components['schemas']['AuditEventPage'];
export type EventsQuery = NonNullable<paths['/admin/list-events']['get']['parameters']['query']>;

/**
 * The types the service records (docs/audit.md). The schema gives `type` as a plain string and the service's list
 * is not in the package export the console may import, so the console keeps this copy; a unit test compares it
 * with the service's source.
 */
export const AUDIT_EVENT_TYPES = [
  'user.signed_up',
  'user.signed_in',
  'user.sign_in_failed',
  'user.signed_out',
  'user.session_revoked',
  'user.sessions_revoked',
  'user.password_changed',
  'user.password_reset',
  'user.password_set',
  'user.email_change_requested',
  'user.email_changed',
  'user.email_verified',
  'user.updated',
  'user.deleted',
  'user.account_linked',
  'user.account_unlinked',
  'user.ban_lapsed',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'user.backup_codes_regenerated',
  'user.two_factor_locked',
  'user.email_otp_locked',
  'user.passkey_added',
  'user.passkey_removed',
  'admin.user.created',
  'admin.user.updated',
  'admin.user.role_set',
  'admin.user.banned',
  'admin.user.unbanned',
  'admin.user.password_set',
  'admin.user.two_factor_reset',
  'admin.user.session_revoked',
  'admin.user.sessions_revoked',
  'admin.user.impersonation_started',
  'admin.user.impersonation_stopped',
  'admin.user.removed',
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization.member.added',
  'organization.member.removed',
  'organization.member.role_updated',
  'organization.invitation.created',
  'organization.invitation.accepted',
  'organization.invitation.rejected',
  'organization.invitation.canceled',
  'organization.team.created',
  'organization.team.updated',
  'organization.team.removed',
  'organization.team.member_added',
  'organization.team.member_removed',
  'api_key.created',
  'api_key.updated',
  'api_key.deleted',
  'signing_key.rotated',
  'webhook.endpoint_created',
  'webhook.endpoint_updated',
  'webhook.endpoint_deleted',
  'webhook.secret_rotated',
  'webhook.endpoint_disabled',
  'oauth_client.created',
  'oauth_client.updated',
  'oauth_client.deleted',
  'oauth_client.secret_rotated',
] as const;

/** The type picker's choices: every prefix that groups two or more types (`admin.user`), then every type. */
export function typeChoices(types: readonly string[] = AUDIT_EVENT_TYPES): string[] {
  const counts = new Map<string, number>();
  for (const type of types) {
    const parts = type.split('.');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('.');
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  const prefixes = [...counts].filter(([, n]) => n > 1).map(([prefix]) => prefix);
  return [...prefixes.sort(), ...types];
}

/** What the Audit page's filters hold (text as typed; times as a datetime-local value, the browser's zone). */
export interface AuditFilter {
  actorId?: string;
  targetId?: string;
  type?: string;
  organizationId?: string;
  from?: string;
  to?: string;
}

/** A datetime-local value (`2026-05-01T09:30`, local time) → an ISO instant; anything else: undefined. */
export function instant(local: string | undefined): string | undefined {
  const text = local?.trim();
  if (!text) return undefined;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The filters → list-events' query: every filter set is sent, trimmed; empty ones are left out. */
export function eventsQuery(filter: AuditFilter, cursor?: string | null, limit = 50): EventsQuery {
  const query: EventsQuery = { limit };
  for (const key of ['actorId', 'targetId', 'type', 'organizationId'] as const) {
    const value = filter[key]?.trim();
    if (value) query[key] = value;
  }
  const from = instant(filter.from);
  const to = instant(filter.to);
  if (from) query.from = from;
  if (to) query.to = to;
  if (cursor) query.cursor = cursor;
  return query;
}

/**
 * How the actor reads: a user links to their page by email (list-events names them; a user since deleted has only
 * the id), with their name; anything else is a label (and the key or credential id).
 */
export type ActorLabel =
  | { kind: 'user'; id: string; email: string | null; name: string | null }
  | { kind: 'text'; text: string };

export function actorLabel(actor: AuditEvent['actor']): ActorLabel {
  switch (actor.type) {
    case 'user':
      return actor.id
        ? { kind: 'user', id: actor.id, email: actor.email ?? null, name: actor.name ?? null }
        : { kind: 'text', text: 'user' };
    case 'api_key':
      return { kind: 'text', text: actor.id ? `API key ${actor.id}` : 'API key' };
    case 'service':
      return {
        kind: 'text',
        text: actor.id === 'static' ? 'service (SERVICE_API_KEY)' : `service ${actor.id ?? ''}`.trim(),
      };
    case 'system':
      return { kind: 'text', text: 'system' };
    case 'anonymous':
      return { kind: 'text', text: 'anonymous' };
    default:
      return { kind: 'text', text: [actor.type, actor.id].filter(Boolean).join(' ') };
  }
}

/**
 * An event type in pieces that each end at a separator (`admin.`, `user.`, `impersonation_`, `started`): the table
 * puts a line-break opportunity after each piece and none inside one, so a long type wraps between its words only.
 * An email address is cut the same way after its `@` and dots (`ada@`, `example.`, `com`).
 */
export function typeSegments(type: string, separators: '._' | '@.' = '._'): string[] {
  const piece = new RegExp(`[^${separators}]*[${separators}]|[^${separators}]+$`, 'g');
  return type.match(piece) ?? [type];
}

/** Where a target links: a user's or an organization's page; other targets are shown as type and id. */
export function targetLink(target: AuditEvent['target']): string | null {
  if (!target) return null;
  if (target.type === 'user') return `/users/${encodeURIComponent(target.id)}/show`;
  if (target.type === 'organization') return `/organizations/${encodeURIComponent(target.id)}/show`;
  if (target.type === 'oauth_client') return `/applications/${encodeURIComponent(target.id)}/show`;
  return null;
}

/**
 * Several feeds (each newest first, each paged by its own cursor) as one list, newest first, without repeats.
 * A feed with more pages bounds the list: nothing older than its last loaded event is shown yet, so an event
 * of its next page can never turn up above one already shown.
 */
export function mergeFeeds(feeds: { events: AuditEvent[]; more: boolean }[]): AuditEvent[] {
  const bounds = feeds
    .filter((feed) => feed.more && feed.events.length > 0)
    .map((feed) => Date.parse(feed.events[feed.events.length - 1].occurredAt));
  const oldest = bounds.length ? Math.max(...bounds) : Number.NEGATIVE_INFINITY;
  const seen = new Set<string>();
  const all: AuditEvent[] = [];
  for (const feed of feeds)
    for (const event of feed.events) {
      if (seen.has(event.id) || Date.parse(event.occurredAt) < oldest) continue;
      seen.add(event.id);
      all.push(event);
    }
  return all.sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
}

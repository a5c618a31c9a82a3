import type { Sql } from './sql';

/**
 * The audit trail's vocabulary (docs/audit.md), shared by every feature that records events and by the audit
 * feature that stores and reads them. Types only and a few pure helpers: no I/O.
 */

/**
 * Who did it. A user acting through their session (`impersonatorId`: the admin behind an impersonation session);
 * a user's API key standing for a session; a service credential (an API key holding the service permission, or
 * `static` for SERVICE_API_KEY); the service itself (`system`: the operations CLI, lapsing bans, key rotation); or
 * nobody known yet (`anonymous`: a failed sign-in).
 */
export type AuditActor =
  | { type: 'user'; id: string; impersonatorId?: string | null }
  | { type: 'api_key'; id: string; userId: string }
  | { type: 'service'; id: string }
  | { type: 'system' }
  | { type: 'anonymous' };

/**
 * Every kind of actor, as list-events' schema documents them and the audit_events table allows them (its
 * audit_events_actor_type_known constraint: shared/audit.test.ts compares the two).
 */
export const AUDIT_ACTOR_TYPES = [
  'user',
  'api_key',
  'service',
  'system',
  'anonymous',
] as const satisfies readonly AuditActor['type'][];

/** Where a change came from: the actor and the request (built by the route, `http/audit-source.ts`). */
export interface AuditSource {
  actor: AuditActor;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Every kind of target, as list-events' schema documents them (docs/audit.md). */
export const AUDIT_TARGET_TYPES = [
  'user',
  'session',
  'organization',
  'member',
  'invitation',
  'team',
  'api_key',
  'signing_key',
  'webhook_endpoint',
  'email',
  'oauth_client',
] as const;

export interface AuditTarget {
  type: (typeof AUDIT_TARGET_TYPES)[number];
  id: string;
}

/** Small facts about the change: never a secret, a token, a password or a hash (the writer refuses such keys). */
export type AuditDetails = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

export interface AuditEvent {
  type: AuditEventType;
  source: AuditSource;
  target?: AuditTarget | null;
  organizationId?: string | null;
  details?: AuditDetails;
}

/**
 * Records an event in the transaction of the change it describes: both commit, or neither. Features declare
 * this narrow interface where they need it (their deps.ts); the audit feature's writer fits.
 */
export interface AuditLog {
  record(tx: Sql, event: AuditEvent): Promise<void>;
}

/** Every event type the service records (docs/audit.md); list-events' type prefix is matched against these. */
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

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** The operations CLI and the service's own chores. */
export const SYSTEM_SOURCE: AuditSource = Object.freeze({
  actor: Object.freeze({ type: 'system' }) as AuditActor,
  ipAddress: null,
  userAgent: null,
  requestId: null,
});

/** The same request, with the user it just signed in (or up) as the actor. */
export const asUser = (source: AuditSource, userId: string): AuditSource => ({
  ...source,
  actor: { type: 'user', id: userId },
});

export const userTarget = (id: string): AuditTarget => ({ type: 'user', id });

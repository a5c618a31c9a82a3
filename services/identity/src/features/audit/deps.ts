import type { Permissions } from '../../access';
import type { Config } from '../../config';
import type { ErrorCode } from '../../errors';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AuditEvents, EventFollower } from './events.service';

/** The admin feature's access model, as far as list-events asks it (its AdminAccess fits). */
export interface AdminAuditAccess {
  can(auth: SessionWithUser, permissions: Permissions): boolean;
}

/**
 * The organization feature's membership checks, as far as its list-events asks them (its OrganizationAccess fits):
 * the caller's own membership, held to the organization's second-factor policy.
 */
export interface OrganizationAuditAccess {
  self(organizationId: string, user: UserView, missing: ErrorCode): Promise<{ role: string }>;
  can(member: { role: string }, permissions: Permissions): boolean;
}

/** What the audit trail's writer needs from outside. */
export interface AuditFeatureDeps {
  sql: Sql;
  clock: Clock;
  config: Config;
  /** Work that follows every event in its transaction (the webhooks' routing), fixed when the writer is made. */
  followers: readonly EventFollower[];
}

/** What list-events needs: the readers' permission checks (null when that feature is off). */
export interface AuditReadsDeps {
  sql: Sql;
  events: AuditEvents;
  admin: AdminAuditAccess | null;
  organization: OrganizationAuditAccess | null;
}

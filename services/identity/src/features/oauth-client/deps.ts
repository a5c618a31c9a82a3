import type { Permissions } from '../../access';
import type { Config } from '../../config';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';

/** The admin feature's access model, as far as the OAuth client routes ask it (its AdminAccess fits). */
export interface OAuthClientAdminAccess {
  can(auth: SessionWithUser, permissions: Permissions): boolean;
}

/** What the OAuth client feature needs from outside. */
export interface OAuthClientFeatureDeps {
  sql: Sql;
  /** Grace periods end by the database's clock. */
  clock: Clock;
  /** `oauthClients` (grace period, API scopes) and `features.admin`. */
  config: Pick<Config, 'oauthClients' | 'features'>;
  /** Every change is an audit event, recorded in its transaction (webhooks follow it). */
  audit: AuditLog;
  /** The admin feature's access model; null when that feature is off (no routes then). */
  admin: OAuthClientAdminAccess | null;
}

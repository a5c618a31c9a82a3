import type { Config } from '../../config';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { KeyValueStore } from '../../store';
import type { AdminAccess } from '../admin';
import type { OrganizationAccess } from '../organization';

/** What the API key feature needs from outside. */
export interface ApiKeyFeatureDeps {
  sql: Sql;
  /** Per-key rate-limit windows (Redis, or this process). */
  store: KeyValueStore;
  config: Config;
  clock: Clock;
  /** The owner of a key, for a session standing for a key (account feature). */
  getUser(id: string): Promise<UserView | null>;
  /** The organization feature's membership checks; null when that feature is off. */
  organizations: OrganizationAccess | null;
  /** The admin feature's access model; null when that feature is off. */
  admin: AdminAccess | null;
  /** Keys created, updated and deleted are recorded in the transaction of the change. */
  audit: AuditLog;
}

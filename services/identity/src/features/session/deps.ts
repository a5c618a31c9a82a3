import type { Config } from '../../config';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';

/** What the session feature needs from outside. */
export interface SessionDeps {
  sql: Sql;
  /** Where resolved sessions are cached between requests (Redis, or this process); null turns the cache off. */
  cache: KeyValueStore | null;
  config: Config['session'];
  clock: Clock;
  /** Sign-ins, sign-outs and revocations are recorded in the transaction that makes or ends the session. */
  audit: AuditLog;
}

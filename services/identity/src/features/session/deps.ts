import type { Config } from '../../config';
import type { Web } from '../../http/web';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import type { SessionService } from './session.service';

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

/** What the session routes use: the shared web parts and the feature's own service. */
export interface SessionWeb extends Web {
  sessions: SessionService;
}

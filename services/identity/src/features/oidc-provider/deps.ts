import type { Config } from '../../config';
import type { Lifecycle } from '../../http/drain';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { KeyValueStore } from '../../store';
import type { SigningKeys } from '../jwt';
import type { SessionService } from '../session';
import type { ClientSource } from './clients';

/** What the OpenID provider needs from outside. */
export interface OidcProviderDeps {
  config: Config;
  sql: Sql;
  /** The short-lived records (sessions, interactions, codes, access tokens): Redis, or in process. */
  store: KeyValueStore;
  clock: Clock;
  /** The service's signing keys (jwt feature), with an active RS256 key beside the configured algorithm's. */
  keys: SigningKeys;
  /** Where the clients come from: the static configuration (`staticClients`), later the client registry. */
  clients: ClientSource;
  /** Ends the browser's service session when it signs out at the provider (RP-initiated logout). */
  sessions: Pick<SessionService, 'revoke'>;
  /** The user behind an account id (account feature). */
  getUser(id: string): Promise<UserView | null>;
  /** Whether the service drains: the provider's answers then close their connection too. */
  lifecycle: Lifecycle;
  warn: (message: string) => void;
}

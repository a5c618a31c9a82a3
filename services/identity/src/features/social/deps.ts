import type { Config } from '../../config';
import type { Web } from '../../http/web';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { KeyValueStore } from '../../store';
import type { AccountService } from '../account';
import type { SessionService } from '../session';
import type { SocialServices } from '.';
import type { IdTokenVerifier } from './id-token';
import type { ProviderRegistry } from './providers/registry';
import type { SocialRepository } from './repository';
import type { OAuthStates } from './state';
import type { TokenVault } from './vault';

/** What the social feature needs from outside. */
export interface SocialFeatureDeps
  extends Pick<SocialDeps, 'sql' | 'config' | 'clock' | 'accounts' | 'sessions' | 'banCheck' | 'audit' | 'warn'> {
  /** OAuth state between the redirect and the callback (Redis, or this process). */
  store: KeyValueStore;
}

export interface SocialWeb extends Web {
  social: SocialServices;
}

/** What the social feature's services share (wired in index.ts). */
export interface SocialDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  providers: ProviderRegistry;
  verifier: IdTokenVerifier;
  states: OAuthStates;
  repo: SocialRepository;
  vault: TokenVault;
  accounts: AccountService;
  sessions: SessionService;
  /**
   * Named hook for the admin feature (spec §8): refuses a banned user (throws BANNED_USER) or answers the user
   * as it now is (a lapsed ban lifted). The callback turns the refusal into a redirect to the error page.
   */
  banCheck: ((user: UserView) => Promise<UserView>) | null;
  /** Links and unlinks are recorded in their own transaction; sign-ins through the session feature. */
  audit: AuditLog;
  /** The operator's log: a stored token no configured secret opens. */
  warn: (message: string) => void;
}

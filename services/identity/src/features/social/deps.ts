import type { Config } from '../../config';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { SignInSteps } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import type { AccountService } from '../account';
import type { IdTokenVerifier } from './id-token';
import type { ProviderRegistry } from './providers/registry';
import type { SocialRepository } from './repository';
import type { OAuthStates } from './state';
import type { TokenVault } from './vault';

/** What the social feature needs from outside. */
export interface SocialFeatureDeps
  extends Pick<SocialDeps, 'sql' | 'config' | 'clock' | 'accounts' | 'signIn' | 'audit' | 'warn'> {
  /** OAuth state between the redirect and the callback (Redis, or this process). */
  store: KeyValueStore;
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
  /**
   * The sign-in seam: a provider's answer ends in it (the ban, the second factor, the session). Its ban check runs
   * before an account is linked or its tokens stored, so a banned user changes nothing (docs/SPEC.md §8: the callback
   * turns BANNED_USER into a redirect to the error page).
   */
  signIn: SignInSteps;
  /** Links and unlinks are recorded in their own transaction; sign-ins through the sign-in seam. */
  audit: AuditLog;
  /** The operator's log: a stored token no configured secret opens. */
  warn: (message: string) => void;
}

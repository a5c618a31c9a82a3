import type { Config } from '../../config';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { SignInSteps } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import type { AccountService } from '../account';

/** What the social feature needs from outside. */
export interface SocialFeatureDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  /** OAuth state between the redirect and the callback (Redis, or this process). */
  store: KeyValueStore;
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

import type { Config } from '../../config';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog, AuditSource, AuditTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { SignInSteps } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';

/** The users a link signs in, or registers (the account feature's AccountService fits). */
export interface UserDirectory {
  getUserByEmail(email: string): Promise<UserView | null>;
  registerExternal(
    input: { email: string; name: string; image: string | null; emailVerified: boolean },
    method: string,
    source: AuditSource,
    attach: (tx: Sql, user: UserView) => Promise<void>,
  ): Promise<UserView>;
}

/** A change to a user's record that fences their cached sessions, and ending them (the SessionService fits). */
export interface UserSessions {
  changeUser<T>(userId: string, change: (tx: Sql) => Promise<T>): Promise<T>;
  endAllForUserIn(tx: Sql, userId: string): Promise<() => Promise<void>>;
}

/** What the magic-link feature needs from outside. */
export interface MagicLinkFeatureDeps {
  sql: Sql;
  accounts: UserDirectory;
  sessions: UserSessions;
  /** The ban rule, asked before a link changes anything of its own (a sign-up, a proven address). */
  signIn: Pick<SignInSteps, 'checkBan'>;
  /** The link is mailed in the transaction that stores it, through the per-address mail cap. */
  mail: MailOutbox;
  config: Config;
  clock: Clock;
  audit: AuditLog & { emailTarget(email: string): AuditTarget };
}

import type { Config } from '../../config';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog, AuditSource, AuditTarget } from '../../shared/audit';
import type { BackgroundTasks } from '../../shared/background';
import type { Clock } from '../../shared/clock';
import type { SignInSteps } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import type { PasswordlessAccounts, PasswordlessEmails } from '../account';
import type { CodeBudget } from './guess-budget';

/** A new password proven by a code (the account feature's PasswordService fits). */
export interface PasswordReset {
  resetProven(
    userId: string,
    newPassword: string,
    source: AuditSource,
    spend: (tx: Sql) => Promise<void>,
  ): Promise<void>;
}

/** A change to a user's record that fences their cached sessions (the SessionService fits). */
export interface UserSessions {
  changeUser<T>(userId: string, change: (tx: Sql) => Promise<T>): Promise<T>;
}

/** What the email-otp feature needs from outside. */
export interface EmailOtpFeatureDeps {
  sql: Sql;
  store: KeyValueStore;
  /** The account feature's users: found, registered, their address proven. */
  accounts: PasswordlessAccounts;
  /** The account feature's email rules: the sign-in after a proven address, the change of email. */
  emails: PasswordlessEmails;
  passwords: PasswordReset;
  sessions: UserSessions;
  /** The ban rule, asked before a code changes anything of its own (a sign-up, a proven address). */
  signIn: Pick<SignInSteps, 'checkBan'>;
  /** The second factor's budget of wrong codes (the two-factor feature's `attempts`): shared with a code's guesses. */
  attempts: CodeBudget;
  /** Codes are mailed in the transaction that stores them, through the per-address mail cap. */
  mail: MailOutbox;
  /** A code asked for by address is stored (and mailed) after the answer, so its time tells no account. */
  background: BackgroundTasks;
  config: Config;
  clock: Clock;
  audit: AuditLog & { emailTarget(email: string): AuditTarget };
}

import type { Config } from '../../config';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog, AuditTarget } from '../../shared/audit';
import type { BackgroundTasks } from '../../shared/background';
import type { Clock } from '../../shared/clock';
import type { SignInSteps } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { PasswordlessAccounts } from '../account';

/** What the magic-link feature needs from outside. */
export interface MagicLinkFeatureDeps {
  sql: Sql;
  /** The account feature's users: found, registered, their address proven. */
  accounts: PasswordlessAccounts;
  /** The ban rule, asked before a link changes anything of its own (a sign-up, a proven address). */
  signIn: Pick<SignInSteps, 'checkBan'>;
  /** The link is mailed in the transaction that stores it, through the per-address mail cap. */
  mail: MailOutbox;
  /** A link asked for by address is made (and mailed) after the answer, so its time tells no account. */
  background: BackgroundTasks;
  config: Config;
  clock: Clock;
  audit: AuditLog & { emailTarget(email: string): AuditTarget };
}

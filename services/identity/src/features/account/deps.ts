import type { Config } from '../../config';
import type { PasswordHasher } from '../../crypto/password';
import type { VerificationTokens } from '../../crypto/verification-token';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog, AuditTarget } from '../../shared/audit';
import type { BackgroundTasks } from '../../shared/background';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import type { SessionService } from '../session';

/** The audit trail as the account flows use it: the writer, and the target of a failed sign-in (no user named). */
export interface AccountAudit extends AuditLog {
  emailTarget(email: string): AuditTarget;
}

/** What the account feature needs from outside. */
export interface AccountFeatureDeps {
  sql: Sql;
  /** The per-account failed sign-in counter's store (Redis, or this process). */
  store: KeyValueStore;
  hasher: PasswordHasher;
  /** Signs the links of verification, reset and deletion mails. */
  verificationTokens: VerificationTokens;
  sessions: SessionService;
  /** Where the flows write their mails, in the transaction of the token they carry. */
  mail: MailOutbox;
  /** Work a request starts and does not wait for (mail for known addresses). */
  background: BackgroundTasks;
  config: Config;
  clock: Clock;
  /** Every change of an account is recorded in its own transaction (docs/audit.md). */
  audit: AccountAudit;
}

import type { Config } from '../../config';
import type { Sealer } from '../../crypto/sealed';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { SessionService } from '../session';

export type TwoFactorAudit = AuditLog;

/** The password check and user lookup the second factor needs (the account feature's AccountService fits). */
export interface PasswordCheck {
  checkPassword(userId: string, password: string): Promise<{ ok: boolean }>;
  getUser(id: string): Promise<UserView | null>;
}

/**
 * The organization feature's `requireTwoFactor` as the sessions see it (its SecondFactorPolicy fits): in the
 * transaction that removed a user's second factor, the organizations requiring one stop being active in their
 * sessions. Answers those organizations and the step to run after the commit.
 */
export interface OrganizationPolicy {
  secondFactorLostIn(tx: Sql, userId: string): Promise<{ organizationIds: string[]; after: () => Promise<void> }>;
}

/**
 * Another kind of second factor an operator's reset removes too (the passkey feature's, given in wiring.ts), in
 * the reset's transaction. Answers how many it removed.
 */
export interface ResettableFactor {
  /** The audit detail's name for the count: `<name>Removed`. */
  name: string;
  removeAll(userId: string, tx: Sql): Promise<number>;
}

/** What the two-factor feature needs from outside. */
export interface TwoFactorFeatureDeps {
  sql: Sql;
  /** The password check before a change of the second factor, and the user of a pending sign-in. */
  accounts: PasswordCheck;
  sessions: SessionService;
  /** Removing a second factor ends the user's sessions' hold on organizations that require one. */
  organizations: OrganizationPolicy;
  /** Seals the TOTP secrets (its own key purpose); the backup codes are keyed by the secret they come with. */
  sealer: Sealer;
  /** The notices are written in the transaction of the change they tell of. */
  mail: MailOutbox;
  config: Config;
  clock: Clock;
  /** Every change of a second factor, and every wrong code at sign-in, is recorded (docs/audit.md). */
  audit: TwoFactorAudit;
  /** The other second factors an operator's reset removes too (the passkey feature's). */
  resettable: readonly ResettableFactor[];
}

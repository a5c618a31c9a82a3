import type { Config } from '../../config';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { SessionService } from '../session';

/** The user a passkey belongs to (the account feature's AccountService fits). */
export interface UserLookup {
  getUser(id: string): Promise<UserView | null>;
}

/**
 * The organization policy a removed passkey may end (the organization feature's SecondFactorPolicy fits): when it
 * was the user's last second factor, organizations requiring one stop being active in their sessions.
 */
export interface OrganizationPolicy {
  secondFactorLostIn(tx: Sql, userId: string): Promise<{ organizationIds: string[]; after: () => Promise<void> }>;
}

/** What the passkey feature needs from outside. */
export interface PasskeyFeatureDeps {
  sql: Sql;
  accounts: UserLookup;
  /** A passkey removed changes the user's cached sessions (their passkey count). */
  sessions: SessionService;
  /** Removing the last second factor ends the user's sessions' hold on organizations that require one. */
  organizations: OrganizationPolicy;
  /** The notices are written in the transaction of the change they tell of. */
  mail: MailOutbox;
  config: Config;
  clock: Clock;
  /** Passkeys added and removed, sign-ins and refused sign-ins are recorded (docs/audit.md). */
  audit: AuditLog;
}

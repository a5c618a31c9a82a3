import type { Static } from 'typebox';
import type { Config } from '../../config';
import type { AuditLog, AuditSource } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { AccountService, DeletionService, EmailService, PasswordService } from '../account';
import type { OrganizationFeature, OrganizationSummary } from '../organization';
import type { SessionService } from '../session';
import type { AdminAccess } from './access';
import type { LinkedAccountSchema } from './organizations.schemas';
import type { AdminPasskeySchema } from './schemas';

/**
 * What the admin feature needs from outside: the other features' services, the infrastructure, and its access
 * model (`createAdminAccess`, made first because other features ask it too).
 */
export interface AdminFeatureDeps {
  /** For the admin operations that write several rows in one transaction (a ban). */
  sql: Sql;
  access: AdminAccess;
  accounts: AccountService;
  passwords: PasswordService;
  /** Verification mails an operator sends for a user. */
  emails: EmailService;
  deletion: DeletionService;
  sessions: SessionService;
  config: Config;
  clock: Clock;
  /** The organization feature's services (operators act through them); null when that feature is off. */
  organizations: OrganizationFeature | null;
  /** A user's linked accounts, from the social feature's list-accounts (never a token or the password hash). */
  linkedAccounts: (userId: string) => Promise<LinkedAccount[]>;
  /** Every admin action is recorded in the transaction of its change (docs/audit.md). */
  audit: AuditLog;
  /** The two-factor feature's reset (its TwoFactorService fits): removes a user's second factor. */
  secondFactors: SecondFactorReset;
  /** A user's passkeys (the passkey feature's PasskeyService fits). */
  passkeys: UserPasskeys;
}

/** A user's passkeys, for the operators' view of their second factors. */
export interface UserPasskeys {
  list(userId: string): Promise<AdminPasskey[]>;
}

/** Removes a user's second factor with its audit event (given `source`) and notice; answers the user as it now is. */
export interface SecondFactorReset {
  reset(user: UserView, source: AuditSource, lang?: string): Promise<UserView>;
}

export interface OrganizationPage {
  organizations: OrganizationSummary[];
  total: number;
}

/** A passkey as operators see it (admin list-user-passkeys; the response schema's type). */
export type AdminPasskey = Static<typeof AdminPasskeySchema>;

/** A linked account as operators see it (admin list-user-accounts; the response schema's type). */
export type LinkedAccount = Static<typeof LinkedAccountSchema>;

import type { FeatureRoutes } from '../../http/web';
import { accountRoutes } from './account.routes';
import { AccountService } from './account.service';
import { deletionRoutes } from './deletion.routes';
import { DeletionService } from './deletion.service';
import type { AccountFeatureDeps } from './deps';
import { emailRoutes } from './email.routes';
import { EmailService } from './email.service';
import { AccountMailer } from './mailer';
import { passwordRoutes } from './password.routes';
import { PasswordService } from './password.service';
import { AccountRepository } from './repository';
import { SignInThrottle } from './sign-in-throttle';
import { TokenRepository } from './tokens.repository';

export type { AccountService } from './account.service';

/** What a passwordless method (a mailed link or code) asks of the accounts: find, register, prove an address. */
export type PasswordlessAccounts = Pick<
  AccountService,
  'getUserByEmail' | 'registerVerified' | 'verifyAddressIn' | 'claimAddress'
>;
/** What a passwordless method asks of the email flows: their rules, whatever proved the address. */
export type PasswordlessEmails = Pick<EmailService, 'signInAfterVerification' | 'checkChange' | 'changeProven'>;
export type { DeletionService } from './deletion.service';
export type { AccountAudit, AccountFeatureDeps } from './deps';
export type { EmailService } from './email.service';
export type { PasswordService } from './password.service';
export type { SignInThrottle } from './sign-in-throttle';

/**
 * Accounts with email and password (docs/SPEC.md §2): sign-up and sign-in, profile, password, email and
 * deletion flows. Its route tables:
 *
 *   account.routes    sign-up/email · sign-in/email · update-user
 *   password.routes   change-password · set-password · request-password-reset · reset-password(/:token)
 *   email.routes      send-verification-email · verify-email · change-email
 *   deletion.routes   delete-user · delete-user/callback
 *
 * The social and admin features create and change users through `accounts`, and the admin feature also uses
 * `passwords` and `deletion`.
 */
export interface AccountFeature extends FeatureRoutes {
  accounts: AccountService;
  passwords: PasswordService;
  emails: EmailService;
  deletion: DeletionService;
  /** Per-account failed sign-in counter (off when rate limits are off). */
  signInThrottle: SignInThrottle;
  /** Deletes verification tokens past their expiry; answers how many. */
  sweepExpiredTokens(batch?: number): Promise<number>;
}

export function createAccountFeature(deps: AccountFeatureDeps): AccountFeature {
  const { sql, config, clock } = deps;
  const repo = new AccountRepository(sql);
  const tokens = new TokenRepository(sql);
  const mailer = new AccountMailer(deps.mail, config);
  const flows = {
    sql,
    repo,
    tokens,
    sessions: deps.sessions,
    hasher: deps.hasher,
    mailer,
    background: deps.background,
    config,
    clock,
    audit: deps.audit,
  };
  const emails = new EmailService({ ...flows, jwt: deps.verificationTokens });
  const accounts = new AccountService({
    sql,
    repo,
    sessions: deps.sessions,
    hasher: deps.hasher,
    config,
    clock,
    emails,
    audit: deps.audit,
  });
  const signInThrottle = new SignInThrottle(
    deps.store,
    config.rateLimit.enabled ? config.rateLimit.accountFailures : { windowSec: 1, max: 0 },
    clock.now,
  );
  const passwords = new PasswordService({ ...flows, accounts, signInThrottle });
  const deletion = new DeletionService({ ...flows, accounts });
  const services = { accounts, passwords, emails, deletion, signInThrottle };
  return {
    ...services,
    sweepExpiredTokens: (batch) => tokens.deleteExpired(new Date(clock.now()), batch),
    async routes(app, web) {
      const ctx = { ...web, ...services };
      await app.register(accountRoutes, ctx);
      await app.register(passwordRoutes, ctx);
      await app.register(emailRoutes, ctx);
      await app.register(deletionRoutes, ctx);
    },
  };
}

import { deriveKey } from '../../crypto/keys';
import type { FeatureRoutes } from '../../http/web';
import type { EmailOtpFeatureDeps } from './deps';
import { emailOtpRoutes } from './email-otp.routes';
import { EmailOtpService } from './email-otp.service';
import { GuessBudget } from './guess-budget';
import { EmailOtpRepository } from './repository';

export type { EmailOtpFeatureDeps } from './deps';
export type { EmailOtpService } from './email-otp.service';

/**
 * Sign-in, email verification and password reset by a mailed one-time code (docs/passwordless.md), as
 * better-auth's email-otp plugin answers them. Its route table:
 *
 *   email-otp.routes   email-otp/send-verification-otp · sign-in/email-otp · email-otp/check-verification-otp ·
 *                      email-otp/verify-email · email-otp/request-password-reset · forget-password/email-otp ·
 *                      email-otp/reset-password · email-otp/request-email-change · email-otp/change-email
 *
 * A sign-in ends in the sign-in seam, which spends the code in the session's transaction; a reset goes through the
 * account feature's password rules, a change of email through its change-of-email rules. Codes live in the verifications table, whose sweep removes expired ones.
 */
export interface EmailOtpFeature extends FeatureRoutes {
  codes: EmailOtpService;
}

export function createEmailOtpFeature(deps: EmailOtpFeatureDeps): EmailOtpFeature {
  const { config } = deps;
  const { lockoutFailures: max, lockoutSec: lockSec } = config.twoFactor;
  const codes = new EmailOtpService({
    ...deps,
    repo: new EmailOtpRepository(deps.sql),
    budget: new GuessBudget(deps.attempts, deps.store, { max, lockSec }, deps.clock.now),
    settings: config.emailOtp,
    // Codes live minutes: a rotated AUTH_SECRET only voids the codes mailed before it.
    hmacKey: deriveKey(config.secret, 'one-time-codes'),
  });
  return {
    codes,
    async routes(app, web) {
      await app.register(emailOtpRoutes, { ...web, codes });
    },
  };
}

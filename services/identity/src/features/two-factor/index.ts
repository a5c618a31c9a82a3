import { type ResealCount, type ResealOptions, resealColumns } from '../../crypto/reseal';
import type { FeatureRoutes } from '../../http/web';
import type { SecondFactorGate } from '../../shared/sign-in';
import type { AttemptBudget } from './attempt-budget';
import { CodeChecks, sealContext } from './codes';
import type { TwoFactorFeatureDeps } from './deps';
import { TwoFactorRepository } from './repository';
import { SignInChallenges } from './sign-in-challenge.service';
import { twoFactorRoutes } from './two-factor.routes';
import { TwoFactorService } from './two-factor.service';

export type { AttemptBudget, AttemptBudgetStore, AttemptRule, CodeVerdict } from './attempt-budget';
export type { Factor } from './codes';
export type { OrganizationPolicy, ResettableFactor, TwoFactorFeatureDeps } from './deps';
export type { SignInChallenges } from './sign-in-challenge.service';
export type { TwoFactorService, TwoFactorStatus } from './two-factor.service';

/**
 * The second factor (docs/two-factor.md): TOTP and backup codes, as better-auth's two-factor plugin answers them.
 * Its route table:
 *
 *   two-factor.routes   two-factor/enable · disable · get-totp-uri · verify-totp · generate-backup-codes ·
 *                       verify-backup-code · status
 *
 * Its services: enrolment and codes checked with a session (two-factor.service), the sign-in's pending step
 * (sign-in-challenge.service), and what both check a code with (codes.ts: the sealed secret, single use, the
 * account's budget of wrong codes). Its `gate` is the sign-in seam's second factor (wiring.ts): a user with one gets
 * a pending sign-in instead of a session, which the second step (`proveSecondStep`) completes through the seam.
 */
export interface TwoFactorFeature extends FeatureRoutes {
  /** Enrolment, codes checked with a session, an operator's reset. */
  twoFactor: TwoFactorService;
  /** The pending sign-in and its second step. */
  challenges: SignInChallenges;
  /** The second factor as the sign-in seam asks it. */
  gate: SecondFactorGate;
  /** The account's budget of wrong one-time codes, shared with the other methods that check a code (attempt-budget.ts). */
  attempts: AttemptBudget;
  /** Deletes expired pending sign-ins and trusted devices; answers how many. */
  sweepExpired(batch?: number): Promise<number>;
  /**
   * Seals the TOTP secrets again under the current AUTH_SECRET (`secrets:reseal`); the backup codes, keyed by the
   * secret, keep working.
   */
  reseal(options: ResealOptions): Promise<ResealCount>;
}

export function createTwoFactorFeature(deps: TwoFactorFeatureDeps): TwoFactorFeature {
  const repo = new TwoFactorRepository(deps.sql);
  const config = deps.config.twoFactor;
  const codes = new CodeChecks({
    sql: deps.sql,
    repo,
    sealer: deps.sealer,
    config,
    clock: deps.clock,
    audit: deps.audit,
  });
  const twoFactor = new TwoFactorService({
    sql: deps.sql,
    repo,
    passwords: deps.accounts,
    sessions: deps.sessions,
    organizations: deps.organizations,
    sealer: deps.sealer,
    mail: deps.mail,
    config: deps.config.twoFactor,
    publicUrl: deps.config.publicUrl,
    clock: deps.clock,
    audit: deps.audit,
    resettable: deps.resettable,
    codes,
  });
  const challenges = new SignInChallenges({ repo, codes, passwords: deps.accounts, config, clock: deps.clock });
  return {
    twoFactor,
    challenges,
    gate: challenges.gate,
    attempts: codes.attempts,
    sweepExpired: (batch = 1000) => challenges.sweepExpired(batch),
    reseal: (options) =>
      resealColumns(
        deps.sql,
        deps.sealer,
        {
          label: 'two-factor secrets',
          table: 'two_factors',
          key: 'user_id',
          columns: [{ name: 'secret_sealed', context: sealContext }],
        },
        options,
      ),
    async routes(app, web) {
      await app.register(twoFactorRoutes, { ...web, twoFactor, challenges });
    },
  };
}

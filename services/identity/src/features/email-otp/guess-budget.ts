import { createHash } from 'node:crypto';
import { fail } from '../../errors';
import type { KeyValueStore } from '../../store';

/** An account's budget of wrong codes, as the two-factor feature's AttemptBudget answers it. */
export interface CodeBudget {
  spend(
    userId: string,
    check: () => Promise<boolean>,
  ): Promise<{ right: true } | { right: false; failures: number; lockStarted: Date | null }>;
}

/**
 * The account lockout for a mailed code (docs/passwordless.md). A user with a second factor spends from the second
 * factor's own budget (two_factors: TWO_FACTOR_LOCKOUT_FAILURES, shared with the TOTP and backup codes), so guesses
 * at mailed codes and at the TOTP step add up. An address without one (no user, or a user without a second factor)
 * has a budget of the same size in the store: one atomic INCR per try, before the code is compared, counted per
 * address (known or not, the same answers) over TWO_FACTOR_LOCKOUT_SEC.
 */
export class GuessBudget {
  constructor(
    private readonly secondFactor: CodeBudget,
    private readonly store: KeyValueStore,
    private readonly rule: { max: number; lockSec: number },
  ) {}

  /** Whether `check` found the code right; ACCOUNT_TEMPORARILY_LOCKED while the budget is spent. */
  async spend(
    who: { email: string; userId: string | null; twoFactor: boolean },
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    if (who.twoFactor && who.userId) return (await this.secondFactor.spend(who.userId, check)).right;
    const { max, lockSec } = this.rule;
    if (max <= 0) return check();
    const key = `email-otp-guesses:${createHash('sha256').update(who.email).digest('base64url')}`;
    if ((await this.store.incr(key, lockSec)) > max) fail('ACCOUNT_TEMPORARILY_LOCKED');
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      await this.store.decr(key).catch(() => {});
      throw error;
    }
    if (right) await this.store.del(key).catch(() => {});
    return right;
  }
}

import { createHash } from 'node:crypto';
import { fail } from '../../errors';
import type { KeyValueStore } from '../../store';

/** What a checked code came to, as the two-factor feature's AttemptBudget answers it. */
export type CodeVerdict = { right: true } | { right: false; failures: number; lockStarted: Date | null };

/** An account's budget of wrong codes, as the two-factor feature's AttemptBudget answers it. */
export interface CodeBudget {
  spend(userId: string, check: () => Promise<boolean>): Promise<CodeVerdict>;
}

/**
 * What a code check came to, and whose budget it was taken from: the second factor's (`second-factor`, a user who
 * has one) or the address's own (`address`).
 */
export type GuessVerdict = CodeVerdict & { budget: 'second-factor' | 'address' };

/**
 * The account lockout for a mailed code (docs/passwordless.md). A user with a second factor spends from the second
 * factor's own budget (two_factors: TWO_FACTOR_LOCKOUT_FAILURES, shared with the TOTP and backup codes), so guesses
 * at mailed codes and at the TOTP step add up. An address without one (no user, or a user without a second factor)
 * has a budget of the same size in the store: one atomic INCR per try, before the code is compared, counted per
 * address (known or not, the same answers) over TWO_FACTOR_LOCKOUT_SEC. The wrong try that spends it starts the
 * lock, which then lasts TWO_FACTOR_LOCKOUT_SEC from that try, as the second factor's does. Recording a lock is the
 * caller's (it knows the kind of code and the actor): the verdict says when one started.
 */
export class GuessBudget {
  constructor(
    private readonly secondFactor: CodeBudget,
    private readonly store: KeyValueStore,
    private readonly rule: { max: number; lockSec: number },
    private readonly now: () => number,
  ) {}

  /** What `check` found; ACCOUNT_TEMPORARILY_LOCKED while the budget is spent. */
  async spend(
    who: { email: string; userId: string | null; twoFactor: boolean },
    check: () => Promise<boolean>,
  ): Promise<GuessVerdict> {
    if (who.twoFactor && who.userId)
      return { ...(await this.secondFactor.spend(who.userId, check)), budget: 'second-factor' };
    const { max, lockSec } = this.rule;
    if (max <= 0) return { ...(await unlimited(check)), budget: 'address' };
    const key = `email-otp-guesses:${createHash('sha256').update(who.email).digest('base64url')}`;
    const failures = await this.store.incr(key, lockSec);
    if (failures > max) fail('ACCOUNT_TEMPORARILY_LOCKED');
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      await this.store.decr(key).catch(() => {});
      throw error;
    }
    if (right) {
      await this.store.del(key).catch(() => {});
      return { right: true, budget: 'address' };
    }
    if (failures < max) return { right: false, failures, lockStarted: null, budget: 'address' };
    // This try spent the budget: the lock runs from now (the count's window began with the first wrong try).
    const lockedUntil = new Date(this.now() + lockSec * 1000);
    await this.store.set(key, String(max), lockSec).catch(() => {});
    return { right: false, failures, lockStarted: lockedUntil, budget: 'address' };
  }
}

async function unlimited(check: () => Promise<boolean>): Promise<CodeVerdict> {
  return (await check()) ? { right: true } : { right: false, failures: 0, lockStarted: null };
}

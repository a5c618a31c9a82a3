import { fail } from '../../errors';

/** Where an account's budget of wrong codes is kept: three conditional statements on one row per account. */
export interface AttemptBudgetStore {
  /**
   * Takes one attempt unless the account is locked: the count grows by one (from one again when a lock has lapsed)
   * and, when it reaches `max`, the lock starts (until `lockUntil`) with this attempt. Answers the new count and the
   * lock this attempt started, or null when it was refused (a lock is running, or the account has no budget row).
   */
  takeAttempt(
    userId: string,
    max: number,
    lockUntil: Date,
    now: Date,
  ): Promise<{ failures: number; lockedUntil: Date | null } | null>;
  /** Gives one attempt back (its check never ran to a verdict), and lifts the lock if that attempt started it. */
  returnAttempt(userId: string, startedLock: Date | null): Promise<void>;
  /**
   * A right code: the count starts again and a lapsed lock, or the lock this attempt started, is lifted. A lock
   * started by a later attempt (in flight alongside) stays: the budget was spent by then.
   */
  resetAttempts(userId: string, startedLock: Date | null, now: Date): Promise<void>;
}

export interface AttemptRule {
  /** Wrong codes in a row that lock the account; 0: no budget. */
  max: number;
  lockSec: number;
}

/** What a checked code came to. A wrong one says how many are spent and the lock it started, if it did. */
export type CodeVerdict = { right: true } | { right: false; failures: number; lockStarted: Date | null };

/**
 * An account's budget of wrong one-time codes (docs/two-factor.md "Limits"), for every kind of code that proves a
 * factor of the account: each check takes one attempt from the budget before the code is looked at, in one
 * conditional statement, so parallel requests (from any number of pending sign-ins, routes or instances) can never
 * have more codes checked than the budget holds. A wrong code keeps its attempt; a right one gives the count back;
 * a check that fails without a verdict (the database out of reach) returns its attempt, so an outage never locks an
 * owner out. Recording what happened (audit events) is the caller's: it knows the kind of code and the actor.
 */
export class AttemptBudget {
  constructor(
    private readonly store: AttemptBudgetStore,
    private readonly rule: AttemptRule,
    private readonly now: () => Date,
  ) {}

  /** Checks a code against `userId`'s budget; refused with ACCOUNT_TEMPORARILY_LOCKED while it is locked. */
  async spend(userId: string, check: () => Promise<boolean>): Promise<CodeVerdict> {
    const { max, lockSec } = this.rule;
    if (max <= 0) return (await check()) ? { right: true } : { right: false, failures: 0, lockStarted: null };
    const now = this.now();
    const taken = await this.store.takeAttempt(userId, max, new Date(now.getTime() + lockSec * 1000), now);
    if (!taken) fail('ACCOUNT_TEMPORARILY_LOCKED');
    const startedLock = taken.lockedUntil;
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      await this.store.returnAttempt(userId, startedLock).catch(() => {});
      throw error;
    }
    if (!right) return { right: false, failures: taken.failures, lockStarted: startedLock };
    await this.store.resetAttempts(userId, startedLock, this.now());
    return { right: true };
  }
}

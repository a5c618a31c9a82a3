import { createHash } from 'node:crypto';
import { ApiError, fail } from '../../errors';
import type { KeyValueStore } from '../../store';
import { MemoryStore } from '../../store';

export interface FailureRule {
  windowSec: number;
  /** Failed sign-ins per account and window; 0 turns the counter off. */
  max: number;
}

/**
 * The per-account failure counter (docs/security.md): guesses at one account spread over many client
 * addresses are throttled too. Counted per email, known or not (the answer must not reveal which), in Redis across
 * instances or in this process while Redis is away. A window ends the throttle: never a permanent lockout.
 */
export class SignInThrottle {
  private readonly local: MemoryStore;

  constructor(
    private readonly store: KeyValueStore,
    private readonly rule: FailureRule,
    now: () => number,
  ) {
    this.local = new MemoryStore(now, 50_000);
  }

  /**
   * Runs a sign-in attempt for `email`, refused with RATE_LIMITED while the account's window is full. The attempt
   * is counted before it runs (one atomic INCR), so parallel guesses cannot all slip past the check; a success
   * clears the count. Only a wrong password (or an unknown email: the same answer) stays counted: an attempt that
   * failed otherwise (the database out of reach, a correct password on an unverified email) is taken back, so an
   * outage never locks an account's owner out.
   */
  async guard<T>(email: string, attempt: () => Promise<T>): Promise<T> {
    if (this.rule.max <= 0) return attempt();
    const key = keyFor(email);
    const { count, store } = await this.count(key);
    if (count > this.rule.max) fail('RATE_LIMITED');
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (!isWrongPassword(error)) await store.decr(key).catch(() => {});
      throw error;
    }
    await this.clear(email);
    return result;
  }

  /**
   * Forgets the failures counted for `email`: after a successful sign-in, and when the account gets a new password
   * (a completed reset, an operator's set-user-password, set-password), so its owner is never kept out by guesses
   * made at the old one. Never fails: a Redis that cannot delete now keeps the delete owed (store/redis-store.ts).
   */
  async clear(email: string): Promise<void> {
    const key = keyFor(email);
    await Promise.all([this.store.del(key).catch(() => {}), this.local.del(key)]);
  }

  /** Counts this attempt: in Redis across instances, or in this process while Redis is away (`store` says which). */
  private async count(key: string): Promise<{ count: number; store: KeyValueStore }> {
    const { windowSec } = this.rule;
    try {
      return { count: await this.store.incr(key, windowSec), store: this.store };
    } catch {
      return { count: await this.local.incr(key, windowSec), store: this.local };
    }
  }
}

const isWrongPassword = (error: unknown) => error instanceof ApiError && error.code === 'INVALID_EMAIL_OR_PASSWORD';

/** Keyed by the email's hash, lower-cased as emails are stored (spec §3). */
const keyFor = (email: string) =>
  `sign-in-failures:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

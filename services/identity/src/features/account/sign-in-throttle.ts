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
 * The per-account failure counter (SECURITY.md rate limits): guesses at one account spread over many client
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

  /** Runs a sign-in attempt for `email`, refused with RATE_LIMITED while the account's window is full. */
  async guard<T>(email: string, attempt: () => Promise<T>): Promise<T> {
    if (this.rule.max <= 0) return attempt();
    const key = `sign-in-failures:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;
    if (Number((await this.read(key)) ?? 0) >= this.rule.max) fail('RATE_LIMITED');
    try {
      const result = await attempt();
      await this.store.del(key).catch(() => this.local.del(key));
      return result;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_EMAIL_OR_PASSWORD')
        await this.store.incr(key, this.rule.windowSec).catch(() => this.local.incr(key, this.rule.windowSec));
      throw error;
    }
  }

  private async read(key: string): Promise<string | null> {
    try {
      const [shared, here] = await Promise.all([this.store.get(key), this.local.get(key)]);
      return String(Math.max(Number(shared ?? 0), Number(here ?? 0)));
    } catch {
      return this.local.get(key);
    }
  }
}

/**
 * What the service keeps outside PostgreSQL that may expire or be rebuilt (PostgreSQL stays the source of truth):
 * the session cache and, later, OAuth state. Redis in production; in-process without REDIS_URL.
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  /** Several values in one round trip (MGET), in the order of `keys`. */
  getMany(keys: string[]): Promise<Array<string | null>>;
  set(key: string, value: string, ttlSec: number): Promise<void>;
  /**
   * Fences `keys` for `ttlSec` (until deleted or expired): `get`, `getMany` and `take` answer null for them and
   * `fill` leaves them alone. Written before a change commits that makes their values stale, so that nothing written from the old
   * state outlives the change, even when the process dies before the delete that follows the commit. A failure is
   * remembered like a failed `del`.
   */
  fence(keys: string[], ttlSec: number): Promise<void>;
  /** `set`, unless the key is fenced; answers whether it was written. */
  fill(key: string, value: string, ttlSec: number): Promise<boolean>;
  /** Read and delete in one atomic step: single-use values. */
  take(key: string): Promise<string | null>;
  del(...keys: string[]): Promise<void>;
  /** Adds one to a counter and answers the new count; the first count starts its `ttlSec` window. */
  incr(key: string, ttlSec: number): Promise<number>;
  /** Takes back one count of `incr` (never below zero); the window keeps its end. */
  decr(key: string): Promise<void>;
}

/** The value of a fenced key: no caller ever stores it (session entries start with `0` or `1`). */
export const FENCE = '\u0000fenced';

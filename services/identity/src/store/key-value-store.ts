/**
 * What the service keeps outside PostgreSQL that may expire or be rebuilt (DESIGN §1):
 * the session cache and, later, OAuth state. Redis in production; in-process without REDIS_URL.
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  /** Several values in one round trip (MGET), in the order of `keys`. */
  getMany(keys: string[]): Promise<Array<string | null>>;
  set(key: string, value: string, ttlSec: number): Promise<void>;
  /** Read and delete in one atomic step: single-use values. */
  take(key: string): Promise<string | null>;
  del(...keys: string[]): Promise<void>;
  /** Adds one to a counter and answers the new count; the first count starts its `ttlSec` window. */
  incr(key: string, ttlSec: number): Promise<number>;
  /** Takes back one count of `incr` (never below zero); the window keeps its end. */
  decr(key: string): Promise<void>;
}

import type { Redis } from 'ioredis';
import { FENCE, type KeyValueStore } from './key-value-store';

/** Evictions remembered while Redis is away; past this, reads skip the cache entirely until they are flushed. */
const MAX_PENDING_EVICTIONS = 100_000;

/** INCR, and the first count opens the window: one atomic step, so racing requests share one window. */
const INCR_WITH_WINDOW = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** DECR an existing, positive counter only: never a new key without a window, never below zero. */
const DECR_IF_POSITIVE = `local n = tonumber(redis.call('GET', KEYS[1]))
if n and n > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;
/** Every key of the call set to the fence value (ARGV[1]) for ARGV[2] seconds. */
const FENCE_KEYS = `for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1], 'EX', ARGV[2]) end
return #KEYS`;

/** SET unless the key holds the fence value (ARGV[3]): the check and the write are one atomic step. */
const FILL_UNLESS_FENCED = `if redis.call('GET', KEYS[1]) == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

/**
 * The Redis adapter. A delete or fence that fails (Redis stopped or hung) must not leave a revoked session cached
 * for when Redis returns (losing Redis never resurrects a revoked session). So the failed keys are kept:
 * reads of them answer "not cached" (PostgreSQL decides), and they are deleted again as soon as the client is
 * ready or answers again. Another instance could still read such an entry until its TTL (session.redisCacheTtlSec) ends.
 */
export class RedisStore implements KeyValueStore {
  readonly kind = 'redis';
  private readonly pending = new Set<string>();
  private overflowed = false;
  private flushing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.on('ready', () => void this.flushEvictions());
  }

  async get(key: string): Promise<string | null> {
    if (this.skips(key)) return null;
    this.assertReady();
    const value = await this.redis.get(this.prefix + key);
    this.answered();
    // A delete that failed while we waited: the value may be stale.
    return this.skips(key) || value === FENCE ? null : value;
  }

  async getMany(keys: string[]): Promise<Array<string | null>> {
    if (!keys.length) return [];
    this.assertReady();
    const values = await this.redis.mget(keys.map((k) => this.prefix + k));
    this.answered();
    return values.map((value, i) => (value === FENCE || this.skips(keys[i]) ? null : value));
  }

  async set(key: string, value: string, ttlSec: number): Promise<void> {
    this.assertReady();
    await this.redis.set(this.prefix + key, value, 'EX', seconds(ttlSec));
    this.pending.delete(key); // written afresh from PostgreSQL: nothing stale left under it
    this.answered();
  }

  async fence(keys: string[], ttlSec: number): Promise<void> {
    if (!keys.length) return;
    try {
      this.assertReady();
      await this.redis.eval(FENCE_KEYS, keys.length, ...keys.map((k) => this.prefix + k), FENCE, seconds(ttlSec));
      this.answered();
    } catch {
      this.owe(keys);
    }
  }

  async fill(key: string, value: string, ttlSec: number): Promise<boolean> {
    this.assertReady();
    const written = await this.redis.eval(FILL_UNLESS_FENCED, 1, this.prefix + key, value, seconds(ttlSec), FENCE);
    if (written === 1) this.pending.delete(key); // written afresh from PostgreSQL: nothing stale left under it
    this.answered();
    return written === 1;
  }

  async take(key: string): Promise<string | null> {
    if (this.skips(key)) return null;
    this.assertReady();
    const value = await this.redis.getdel(this.prefix + key);
    this.answered();
    return value === FENCE ? null : value;
  }

  async del(...keys: string[]): Promise<void> {
    // Keys already owed (a fence that failed) are deleted when Redis answers again: no second wait for them now.
    const due = this.pending.size ? keys.filter((key) => !this.pending.has(key)) : keys;
    if (!due.length) return;
    try {
      this.assertReady();
      await this.redis.del(...due.map((k) => this.prefix + k));
      this.answered();
    } catch {
      this.owe(due);
    }
  }

  /** Keys whose delete (or fence) failed: never read here, deleted as soon as Redis answers again. */
  private owe(keys: string[]): void {
    for (const key of keys) {
      if (this.pending.size >= MAX_PENDING_EVICTIONS) this.overflowed = true;
      else this.pending.add(key);
    }
  }

  async incr(key: string, ttlSec: number): Promise<number> {
    this.assertReady();
    const count = (await this.redis.eval(INCR_WITH_WINDOW, 1, this.prefix + key, Math.max(1, ttlSec))) as number;
    this.answered();
    return count;
  }

  async decr(key: string): Promise<void> {
    this.assertReady();
    await this.redis.eval(DECR_IF_POSITIVE, 1, this.prefix + key);
    this.answered();
  }

  /** Evictions still owed to Redis (for tests and health reporting). */
  get pendingEvictions(): number {
    return this.overflowed ? Number.POSITIVE_INFINITY : this.pending.size;
  }

  /** Not connected (stopped, restarting): fail at once instead of queueing behind reconnect attempts. */
  private assertReady(): void {
    if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status}`);
  }

  /** Redis answers again without having reconnected (it was hung, not down): pay the evictions owed. */
  private answered(): void {
    if ((this.pending.size || this.overflowed) && !this.flushing) void this.flushEvictions();
  }

  private skips(key: string): boolean {
    return this.overflowed || (this.pending.size > 0 && this.pending.has(key));
  }

  private async flushEvictions(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      await this.payEvictions();
    } finally {
      this.flushing = false;
    }
  }

  private async payEvictions(): Promise<void> {
    if (!this.pending.size && !this.overflowed) return;
    if (this.overflowed) {
      // Too many to list: the whole session cache goes (keys of session-cache.ts; rebuilt from PostgreSQL).
      try {
        await this.deleteByPattern(`${this.prefix}session:*`);
        this.pending.clear();
        this.overflowed = false;
      } catch {}
      return;
    }
    const keys = [...this.pending];
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      try {
        await this.redis.del(...chunk.map((k) => this.prefix + k));
        for (const key of chunk) this.pending.delete(key);
      } catch {
        return; // not ready after all: the next 'ready' tries again
      }
    }
  }

  private async deleteByPattern(pattern: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

const seconds = (ttlSec: number): number => Math.max(1, Math.ceil(ttlSec));

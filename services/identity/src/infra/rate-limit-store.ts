import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { BoundedMap } from '../shared/bounded-map';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
type Counted = { current: number; ttl: number };
/** What the plugin passes to `child`: the route's merged limit settings, with the route itself as `routeInfo`. */
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0] & { routeInfo?: { method?: string; url?: string } };

/** Counters of one instance while Redis is away: how many clients it remembers per rule. */
const LOCAL_CAPACITY = 10_000;
/** How long a request waits for Redis to count it before counting it here instead. */
const REMOTE_TIMEOUT_MS = 250;

/**
 * One fixed window per key in Redis: the first request of a window sets its expiry, later ones only count and read
 * what is left of it. INCR and PEXPIRE in one script, so concurrent instances share one exact count.
 */
const COUNT_IN_WINDOW = `local current = redis.call('INCR', KEYS[1])
local ttl = tonumber(ARGV[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ttl) else ttl = redis.call('PTTL', KEYS[1]) end
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/** The key of a route's own counters: the plugin's own layout (`<prefix><METHOD><url>-<client>`). */
const childKey = (prefix: string, options: ChildOptions) =>
  `${prefix}${options.routeInfo?.method ?? ''}${options.routeInfo?.url ?? ''}-`;

/** Fixed windows in Redis, shared by every instance. */
class RedisWindows {
  constructor(private readonly redis: Redis) {}

  count(key: string, windowMs: number, callback: (error: Error | null, counted?: Counted) => void): void {
    this.redis.eval(COUNT_IN_WINDOW, 1, key, windowMs).then(
      (reply) => {
        const [current, ttl] = reply as [number, number];
        callback(null, { current, ttl });
      },
      (error: Error) => callback(error),
    );
  }
}

/** Fixed windows in this process, for the clients seen most recently (the oldest are forgotten first). */
class LocalWindows {
  private readonly windows = new BoundedMap<string, { count: number; endsAt: number }>(LOCAL_CAPACITY);

  constructor(private readonly now: () => number) {}

  count(key: string, windowMs: number): Counted {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { current: window.count, ttl: window.endsAt - now };
  }
}

/**
 * The rate-limit plugin's store (its documented interface: `incr` and `child`). Counts in Redis (atomic across
 * instances) while Redis answers, and in this process when it does not, so an outage never switches the limits off:
 * they fall back to in-process counters. Counts made during an outage stay local; Redis counting resumes as soon as
 * it answers again.
 */
export class FallbackRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly remote = new RedisWindows(redis),
    private readonly local = new LocalWindows(Date.now),
  ) {}

  incr(client: string, callback: Callback, timeWindow: number, _max: number): void {
    const key = this.prefix + client;
    if (this.redis.status !== 'ready') {
      callback(null, this.local.count(key, timeWindow));
      return;
    }
    let settled = false;
    const settle = (counted: Counted | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callback(null, counted ?? this.local.count(key, timeWindow));
    };
    // A Redis that accepts but does not answer (hung, failing over) must not hold the request either.
    const timer = setTimeout(() => settle(null), REMOTE_TIMEOUT_MS);
    this.remote.count(key, timeWindow, (error, counted) => settle(error || !counted ? null : counted));
  }

  child(options: ChildOptions): FastifyRateLimitStore {
    // Each route's rule keeps its own in-process counters, so a flood on one route cannot push out another's.
    return new FallbackRateLimitStore(this.redis, childKey(this.prefix, options), this.remote);
  }
}

/** The store class the plugin instantiates (it calls `new Store(options)`), bound to our Redis client. */
export function fallbackStoreFor(redis: Redis, prefix: string) {
  return class extends FallbackRateLimitStore {
    constructor() {
      super(redis, prefix);
    }
  };
}

import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Incr = FastifyRateLimitStore['incr'];
type Child = Parameters<FastifyRateLimitStore['child']>[0];

/** Counters of one instance while Redis is away: how many clients it remembers per rule. */
const LOCAL_CAPACITY = 10_000;
/** How long a request waits for Redis to count it before counting it here instead. */
const REMOTE_TIMEOUT_MS = 250;

/**
 * Counts in Redis (atomic across instances) while Redis answers, and in this process when it does not, so an
 * outage never switches the limits off: they fall back to in-process counters.
 * Counts made during an outage stay local; Redis counting resumes as soon as it answers again.
 */
export class FallbackRateLimitStore implements FastifyRateLimitStore {
  private readonly remote: FastifyRateLimitStore;
  private readonly local: FastifyRateLimitStore;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    remote?: FastifyRateLimitStore,
  ) {
    this.remote = remote ?? new RedisStore(false, false, redis, key);
    this.local = new LocalStore(false, false, LOCAL_CAPACITY);
  }

  incr(key: string, callback: Parameters<Incr>[1], timeWindow: number, max: number): void {
    if (this.redis.status !== 'ready') {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    let settled = false;
    const settle = (remoteResult: { current: number; ttl: number } | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (remoteResult) callback(null, remoteResult);
      else this.local.incr(key, callback, timeWindow, max);
    };
    // A Redis that accepts but does not answer (hung, failing over) must not hold the request either.
    const timer = setTimeout(() => settle(null), REMOTE_TIMEOUT_MS);
    this.remote.incr(key, (error, result) => settle(error || !result ? null : result), timeWindow, max);
  }

  child(routeOptions: Child): FastifyRateLimitStore {
    return new FallbackRateLimitStore(this.redis, this.key, this.remote.child(routeOptions));
  }
}

/** The store class the plugin instantiates (it calls `new Store(options)`), bound to our Redis client. */
export function fallbackStoreFor(redis: Redis, key: string) {
  return class extends FallbackRateLimitStore {
    constructor() {
      super(redis, key);
    }
  };
}

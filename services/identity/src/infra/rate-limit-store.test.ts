import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import Redis from 'ioredis';
import { FallbackRateLimitStore } from './rate-limit-store';

/** The rate-limit store on this run's Redis: counts shared by instances, per-route keys, and the local fallback. */
const prefix = `${process.env.TEST_REDIS_PREFIX}rl-store-${Date.now()}:`;
let redis: Redis;
beforeAll(async () => {
  redis = new Redis(process.env.TEST_REDIS_URL!, { lazyConnect: true });
  await redis.connect();
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const count = (store: FastifyRateLimitStore, client: string, windowMs = 10_000) =>
  new Promise<{ current: number; ttl: number }>((done, fail) =>
    store.incr(client, (error, result) => (error || !result ? fail(error) : done(result)), windowMs, 3),
  );

const route = (method: string, url: string) => ({ routeInfo: { method, url } }) as never;

describe('FallbackRateLimitStore', () => {
  it('counts one window in Redis for every instance, per route, under the plugin key layout', async () => {
    const a = new FallbackRateLimitStore(redis, prefix).child(route('POST', '/api/auth/sign-in/email'));
    const b = new FallbackRateLimitStore(redis, prefix).child(route('POST', '/api/auth/sign-in/email'));
    const other = new FallbackRateLimitStore(redis, prefix).child(route('POST', '/api/auth/sign-up/email'));
    const results = await Promise.all([count(a, '10.0.0.1'), count(b, '10.0.0.1')]);
    expect(results.map((r) => r.current).sort()).toEqual([1, 2]);
    const third = await count(a, '10.0.0.1');
    expect(third.current).toBe(3);
    expect(third.ttl).toBeGreaterThan(0);
    expect(third.ttl).toBeLessThanOrEqual(10_000);
    expect((await count(other, '10.0.0.1')).current).toBe(1);
    expect(await redis.get(`${prefix}POST/api/auth/sign-in/email-10.0.0.1`)).toBe('3');
    expect(await redis.pttl(`${prefix}POST/api/auth/sign-in/email-10.0.0.1`)).toBeGreaterThan(0);
  });

  it('starts a new window once the last one ended', async () => {
    const store = new FallbackRateLimitStore(redis, prefix).child(route('POST', '/short'));
    expect((await count(store, 'c', 200)).current).toBe(1);
    expect((await count(store, 'c', 200)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect((await count(store, 'c', 200)).current).toBe(1);
  });

  it('counts in this process while Redis is not ready, and never lets the limit lapse', async () => {
    const down = new Redis(process.env.TEST_REDIS_URL!, { lazyConnect: true });
    const store = new FallbackRateLimitStore(down, prefix).child(route('POST', '/down'));
    const counted = [];
    for (let i = 0; i < 4; i++) counted.push((await count(store, 'd')).current);
    expect(counted).toEqual([1, 2, 3, 4]);
    expect(await redis.exists(`${prefix}POST/down-d`)).toBe(0);
    down.disconnect();
  });
});

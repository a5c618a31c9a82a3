import type { Redis } from 'ioredis';
import type { KeyValueStore } from './key-value-store';

export class RedisStore implements KeyValueStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlSec: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', Math.max(1, Math.ceil(ttlSec)));
  }

  take(key: string): Promise<string | null> {
    return this.redis.getdel(this.prefix + key);
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length) await this.redis.del(...keys.map((k) => this.prefix + k));
  }
}

import type { Redis } from 'ioredis';

/** Tells the other instances that the key set changed (a rotation), so they reload it at once. */
export interface KeyEvents {
  publish(): Promise<void>;
  /** Calls `onChange` on every notice; resolves to the unsubscribe step. */
  subscribe(onChange: () => void): Promise<() => Promise<void>>;
}

/** Redis pub/sub on `<prefix>jwks:changed`. The subscriber needs its own connection (subscriber mode). */
export function redisKeyEvents(redis: Redis, prefix: string): KeyEvents {
  const channel = `${prefix}jwks:changed`;
  return {
    async publish() {
      await redis.publish(channel, '1');
    },
    async subscribe(onChange) {
      const subscriber = redis.duplicate({ lazyConnect: true });
      subscriber.on('error', () => {}); // reconnects by itself; the refresh interval covers the gap
      subscriber.on('message', (name: string) => {
        if (name === channel) onChange();
      });
      await subscriber.connect();
      await subscriber.subscribe(channel);
      return async () => {
        await subscriber.quit().catch(() => subscriber.disconnect());
      };
    },
  };
}

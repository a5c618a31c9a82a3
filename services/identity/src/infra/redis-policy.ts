import type { Redis } from 'ioredis';

/**
 * Redis's `maxmemory-policy`, from INFO (CONFIG GET is often disabled on managed Redis), and a warning when it is
 * not `noeviction`: BullMQ's production guide requires noeviction, since an evicting Redis may drop queued mail
 * jobs (the outbox then sends them again, late) and rate-limit counts (limits then start over). Called at start by
 * the API and the worker. Null when Redis does not say.
 */
export async function checkEvictionPolicy(
  redis: Redis,
  warn: (fields: object, message: string) => void,
): Promise<string | null> {
  let info: string;
  try {
    info = await redis.info('memory');
  } catch {
    return null; // not answering now: the start goes on, the connection's own errors are logged
  }
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1] ?? null;
  if (policy && policy !== 'noeviction')
    warn(
      { maxmemoryPolicy: policy },
      `Redis maxmemory-policy is ${policy}, not noeviction: under memory pressure Redis may evict queued mail jobs ` +
        'and rate-limit counts. Set maxmemory-policy noeviction on this Redis.',
    );
  return policy;
}

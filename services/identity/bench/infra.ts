import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Client } from 'pg';

export const FLOOR_TABLE = 'bench_floor';
export const FLOOR_ROWS = 100;

/** The bench's database and Redis key space; both are removed by `cleanup`. */
export interface BenchInfra {
  adminUrl: string;
  databaseName: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

export function benchInfra(env: NodeJS.ProcessEnv = process.env): BenchInfra {
  const adminUrl = env.BENCH_DATABASE_URL_ADMIN || 'postgres://postgres@127.0.0.1:5432/postgres';
  const databaseName = 'identity_bench';
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return {
    adminUrl,
    databaseName,
    databaseUrl: url.toString(),
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379/0',
    redisPrefix: `bench:${randomBytes(6).toString('hex')}:`,
  };
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and recreates the bench database, then fills the floor table (id 1..FLOOR_ROWS). */
export async function createDatabase(infra: BenchInfra): Promise<void> {
  const quoted = `"${infra.databaseName}"`;
  await withClient(infra.adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted}`);
  });
  await withClient(infra.databaseUrl, async (client) => {
    await client.query(`CREATE TABLE ${FLOOR_TABLE} (id integer PRIMARY KEY, email text NOT NULL)`);
    await client.query(
      `INSERT INTO ${FLOOR_TABLE} (id, email) SELECT g, 'user' || g || '@example.com' FROM generate_series(1, $1) g`,
      [FLOOR_ROWS],
    );
    await client.query(`ANALYZE ${FLOOR_TABLE}`);
  });
}

export async function dropDatabase(infra: BenchInfra): Promise<void> {
  await withClient(infra.adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS "${infra.databaseName}" WITH (FORCE)`),
  );
}

async function withRedis<T>(infra: BenchInfra, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(infra.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** Every key under the bench prefix that matches `pattern` (SCAN, never KEYS). */
async function scanKeys(redis: Redis, match: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Stores the fixed key that the floor server's /redis route reads; returns its full name. */
export async function setFloorKey(infra: BenchInfra): Promise<string> {
  const key = `${infra.redisPrefix}floor`;
  await withRedis(infra, (redis) => redis.set(key, JSON.stringify({ id: 1, email: 'user1@example.com' })));
  return key;
}

/** How many keys under the bench prefix match `pattern` (e.g. `session:*`). */
export function countRedisKeys(infra: BenchInfra, pattern: string): Promise<number> {
  return withRedis(infra, async (redis) => (await scanKeys(redis, `${infra.redisPrefix}${pattern}`)).length);
}

/** SCAN + DEL of every key under the bench prefix; returns how many were deleted. */
export function deleteRedisKeys(infra: BenchInfra): Promise<number> {
  return withRedis(infra, async (redis) => {
    const keys = await scanKeys(redis, `${infra.redisPrefix}*`);
    let deleted = 0;
    for (let i = 0; i < keys.length; i += 500) deleted += await redis.del(...keys.slice(i, i + 500));
    return deleted;
  });
}

import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { FLOOR_ROWS, FLOOR_TABLE } from './infra';

/**
 * The floor: a bare Fastify doing the least work each path of get-session does — nothing, one Redis GET,
 * one primary-key SELECT — with the identity service's pool size (10). Started by run.ts as a child.
 * Env: PORT, HOST, DATABASE_URL, REDIS_URL, BENCH_REDIS_KEY (full key, prefix included).
 */
async function main(): Promise<void> {
  const env = process.env;
  const key = env.BENCH_REDIS_KEY;
  if (!env.DATABASE_URL || !env.REDIS_URL || !key || !env.PORT) throw new Error('floor server: missing env');
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 10 });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  const app = Fastify({ logger: false });
  let next = 0;

  app.get('/empty', async () => ({}));

  app.get('/redis', async () => {
    const value = await redis.get(key);
    if (value === null) throw new Error('floor key missing');
    return JSON.parse(value) as unknown;
  });

  app.get('/pg', async () => {
    next = (next % FLOOR_ROWS) + 1;
    const { rows } = await pool.query(`SELECT id, email FROM ${FLOOR_TABLE} WHERE id = $1`, [next]);
    if (!rows[0]) throw new Error('floor row missing');
    return rows[0] as unknown;
  });

  const close = async () => {
    await app.close();
    await pool.end();
    redis.disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  await app.listen({ port: Number(env.PORT), host: env.HOST ?? '127.0.0.1' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/** The server side of `bench:org`: a scratch database, an organization of `members` members, the app listening. */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createContext } from '../src/context';

const ADMIN_URL = process.env.BENCH_DATABASE_URL_ADMIN || 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'identity_bench_org';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** Prints one JSON line ({base, token, organizationId, seedSec, plans}) when ready; cleans up on SIGTERM. */
export async function serveSeeded(members: number, limit: number): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${DB}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379/0',
    REDIS_PREFIX: `bench-org:${process.pid}:`,
    AUTH_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
  });
  const ctx = await createContext(config, { migrate: true, logger: { info() {}, warn() {}, error() {} } });
  const app = await buildApp(ctx, { logger: false });
  const stop = async () => {
    await app.close();
    await ctx.close();
    await admin(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/auth`;
  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: config.publicUrl, ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const owner = await post('/sign-up/email', {
    name: 'Owner',
    email: 'owner@bench.test',
    password: 'bench password 123',
  });
  const org = await post(
    '/organization/create',
    { name: 'Bench', slug: 'bench' },
    { authorization: `Bearer ${owner.token}` },
  );
  const t0 = performance.now();
  await ctx.sql.query(
    `WITH u AS (
       INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'm' || g || '@bench.test', 'Member ' || g
       FROM generate_series(1, $1::int) g RETURNING id)
     INSERT INTO members (id, organization_id, user_id, role, created_at)
     SELECT gen_random_uuid(), $2, id, 'member', now() - (random() * interval '365 days') FROM u`,
    [members - 1, org.id],
  );
  for (const table of ['users', 'members']) await ctx.sql.query(`VACUUM ANALYZE ${table}`); // as autovacuum would
  const seedSec = (performance.now() - t0) / 1000;
  const explain = async (sql: string) =>
    (await ctx.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${sql}`, [org.id])).map((r) => r['QUERY PLAN']);
  const plans = [
    ...(await explain(
      `SELECT m.*, u.name, u.email, u.image FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.id = ANY(ARRAY(SELECT m.id FROM members m WHERE m.organization_id = $1
         ORDER BY m.organization_id, m.created_at, m.id LIMIT ${limit} OFFSET ${members - limit}))
       ORDER BY m.organization_id, m.created_at, m.id`,
    )),
    ...(await explain('SELECT count(*)::int AS n FROM members m WHERE m.organization_id = $1')),
  ];
  console.log(JSON.stringify({ base, token: owner.token, organizationId: org.id, seedSec, plans }));
}

/**
 * `node dist/bench/org-members.js`: list-members of an organization with 10,000 members (issue 5: under 20 ms p99).
 * Seeds a scratch database, serves the real app on a loopback port, then measures pages at several offsets with
 * a sequential loop (client-side latency per request) and with autocannon (10 connections).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createContext } from '../context';

const MEMBERS = Number(process.env.BENCH_MEMBERS || 10_000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL_ADMIN || 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'identity_bench_org';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
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
  try {
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
    const auth = { authorization: `Bearer ${owner.token}` };
    const org = await post('/organization/create', { name: 'Bench', slug: 'bench' }, auth);
    const seeded = performance.now();
    await ctx.sql.query(
      `WITH u AS (
         INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'm' || g || '@bench.test', 'Member ' || g
         FROM generate_series(1, $1::int) g RETURNING id)
       INSERT INTO members (id, organization_id, user_id, role, created_at)
       SELECT gen_random_uuid(), $2, id, 'member', now() - (random() * interval '365 days') FROM u`,
      [MEMBERS - 1, org.id],
    );
    for (const table of ['users', 'members']) await ctx.sql.query(`VACUUM ANALYZE ${table}`); // as autovacuum would
    console.log(`seeded ${MEMBERS} members in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    const limit = 100;
    const offsets = [0, 5000, MEMBERS - limit];
    const page = (offset: number) =>
      `${base}/organization/list-members?organizationId=${org.id}&limit=${limit}&offset=${offset}`;
    const check = await fetch(page(0), { headers: auth }).then((r) => r.json());
    if (check.total !== MEMBERS || check.members.length !== limit)
      throw new Error(`unexpected page: ${JSON.stringify(check).slice(0, 200)}`);

    const sequential = async (label: string, urlOf: () => string) => {
      const samples: number[] = [];
      for (let i = 0; i < 2000; i++) {
        const t0 = performance.now();
        const res = await fetch(urlOf(), { headers: auth });
        await res.arrayBuffer();
        if (i >= 100) samples.push(performance.now() - t0); // the first 100 warm up
      }
      samples.sort((a, b) => a - b);
      const f = (q: number) => quantile(samples, q).toFixed(2);
      console.log(
        `${label}: n=${samples.length} p50 ${f(0.5)} ms, p99 ${f(0.99)} ms, max ${samples.at(-1)!.toFixed(2)} ms`,
      );
    };
    await sequential(`sequential list-members, random offsets, limit ${limit}`, () =>
      page(Math.floor(Math.random() * (MEMBERS / limit)) * limit),
    );
    // Baseline on the same machine: the same session and membership lookups, a one-member body.
    await sequential('sequential get-active-member (baseline)', () => `${base}/organization/get-active-member`);
    for (const offset of offsets) {
      const result = await autocannon({ url: page(offset), connections: 10, duration: 5, headers: auth });
      console.log(
        `autocannon 10 conn 5 s, offset ${offset}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non2xx ${result.non2xx}, errors ${result.errors}`,
      );
    }
    const explain = async (sql: string) => {
      const rows = await ctx.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${sql}`, [org.id]);
      console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
    };
    await explain(
      `SELECT m.* FROM members m WHERE m.organization_id = $1
       ORDER BY m.organization_id, m.created_at, m.id LIMIT 100 OFFSET ${MEMBERS - limit}`,
    );
    await explain('SELECT count(*)::int AS n FROM members m WHERE m.organization_id = $1');
  } finally {
    await app.close();
    await ctx.close();
    await admin(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * `npm run bench:audit`: admin list-events against BENCH_EVENTS events (default 10,000,000) spread over the last 12
 * months (monthly partitions), seeded with one INSERT … SELECT generate_series. For each typical filter it prints
 * p50/p99 of the service's list call (the route's statement and its mapping, in process, one call at a time) and
 * the EXPLAIN ANALYZE plan of the statement. Prints figures; asserts nothing. Run it on a quiet machine: seeding
 * 10 million events takes minutes and the whole CPU.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../src/config';
import { createContext } from '../src/context';
import { listEventsSql } from '../src/features/audit';
import { AUDIT_EVENT_TYPES } from '../src/shared/audit';
import type { SessionWithUser } from '../src/shared/views';

const EVENTS = Number(process.env.BENCH_EVENTS || 10_000_000);
const CALLS = Number(process.env.BENCH_CALLS || 200);
const USERS = 100_000;
const ORGANIZATIONS = 1_000;
const adminUrl = process.env.BENCH_DATABASE_URL_ADMIN || 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `identity_bench_audit_${randomBytes(3).toString('hex')}`;

/** Statements on a plain connection (no service statement timeout: seeding takes minutes). */
async function direct(connectionString: string, ...statements: Array<[string, unknown[]?]>) {
  const c = new Client({ connectionString });
  await c.connect();
  try {
    const results = [];
    for (const [sql, params] of statements) results.push(await c.query(sql, params));
    return results;
  } finally {
    await c.end();
  }
}

/** The id of the n-th made-up user or organization (a UUID from md5, so the seed and the filters agree). */
const idOf = (kind: string, n: number) => {
  const h = createHash('md5').update(`${kind}${n}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/**
 * One statement. Types are skewed as in service (sign-ins most, signing keys rarest): a weighted list indexed by a
 * hash of the row number. Every event has a user actor and target among USERS; one in ten belongs to one of
 * ORGANIZATIONS organizations. Times are spread evenly over the last 365 days.
 */
const WEIGHTED = [
  ...Array(40).fill('user.signed_in'),
  ...Array(10).fill('user.signed_out'),
  ...Array(6).fill('user.sign_in_failed'),
  ...Array(4).fill('user.signed_up'),
  ...AUDIT_EVENT_TYPES.filter((t) => t !== 'signing_key.rotated'),
];
const SEED = `INSERT INTO audit_events (id, occurred_at, type, actor_type, actor_id, target_type, target_id,
    organization_id, ip_address, user_agent, request_id, details)
  SELECT gen_random_uuid(),
         now() - (g::float8 / $1) * interval '365 days',
         CASE WHEN g % 500000 = 0 THEN 'signing_key.rotated'
              ELSE ($2::text[])[1 + (abs(hashint4(g)) % array_length($2::text[], 1))] END,
         'user',
         md5('user' || (abs(hashint4(g + 1)) % ${USERS}))::uuid::text,
         'user',
         md5('user' || (abs(hashint4(g + 2)) % ${USERS}))::uuid::text,
         CASE WHEN g % 10 = 0 THEN md5('org' || (abs(hashint4(g + 3)) % ${ORGANIZATIONS}))::uuid END,
         '203.0.113.' || (g % 250),
         'Mozilla/5.0 (bench)',
         'req-' || g,
         '{"method":"email"}'::jsonb
  FROM generate_series(1, $1) g`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  await direct(adminUrl, [`CREATE DATABASE "${dbName}"`]);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url.toString(),
    AUTH_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
  });
  const quiet = { info() {}, warn() {}, error() {} };
  const ctx = await createContext(config, { migrate: true, logger: quiet });
  try {
    const t = performance.now();
    await direct(
      url.toString(),
      ["SELECT audit_events_add_partitions(now() - interval '12 months', 13)"],
      [SEED, [EVENTS, WEIGHTED]],
      ['VACUUM ANALYZE audit_events'],
    );
    console.log(
      `seeded ${EVENTS} events in ${((performance.now() - t) / 1000).toFixed(1)} s (one INSERT … SELECT generate_series, VACUUM ANALYZE)`,
    );
    const events = ctx.features.auditReads.reads;
    const auth = {
      session: { impersonatedBy: null },
      user: { id: 'bench-operator', role: 'admin' },
    } as unknown as SessionWithUser;
    const day = 86_400_000;
    const monthAgo = Date.now() - 30 * day;
    const first = await events.listAll(auth, { actorId: idOf('user', 42), limit: 3 }); // a cursor mid-list
    const scenarios: Array<[string, Parameters<typeof events.listAll>[1]]> = [
      ['newest page, no filter', {}],
      ['actor (a user, ~100 events)', { actorId: idOf('user', 42) }],
      ["actor, next page (the first page's cursor)", { actorId: idOf('user', 42), cursor: first.nextCursor! }],
      ['target (a user)', { targetType: 'user', targetId: idOf('user', 4242) }],
      ['organization (~1,000 events)', { organizationId: idOf('org', 7) }],
      [
        'organization + type prefix organization.member',
        { organizationId: idOf('org', 7), type: 'organization.member' },
      ],
      [
        `type prefix admin. (${AUDIT_EVENT_TYPES.filter((x) => x.startsWith('admin.')).length} types)`,
        { type: 'admin.' },
      ],
      ['type signing_key.rotated (rare)', { type: 'signing_key.rotated' }],
      ['one day a month ago', { from: new Date(monthAgo).toISOString(), to: new Date(monthAgo + day).toISOString() }],
      [
        'type prefix user.sign + last 7 days',
        { type: 'user.sign', from: new Date(Date.now() - 7 * day).toISOString() },
      ],
    ];
    console.log(`\nadmin list-events, page of 50, ${CALLS} calls each (in process, one at a time):`);
    for (const [name, query] of scenarios) {
      for (let i = 0; i < 5; i++) await events.listAll(auth, query); // warm: plan caches, buffers
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < CALLS; i++) {
        const began = performance.now();
        rows = (await events.listAll(auth, query)).events.length;
        times.push(performance.now() - began);
      }
      times.sort((a, b) => a - b);
      const f = (n: number) => n.toFixed(2).padStart(7);
      console.log(
        `  ${name.padEnd(50)} p50 ${f(percentile(times, 50))} ms  p99 ${f(percentile(times, 99))} ms  (${rows} rows)`,
      );
    }
    if (process.env.BENCH_PLANS !== '0') {
      console.log('\nplans (EXPLAIN ANALYZE):');
      for (const [name, query] of scenarios) {
        const types = query.type ? AUDIT_EVENT_TYPES.filter((x) => x.startsWith(query.type!)) : undefined;
        const { text, params } = listEventsSql({
          limit: 50,
          actorId: query.actorId,
          targetId: query.targetId,
          targetType: query.targetType,
          organizationId: query.organizationId,
          from: query.from ? new Date(query.from) : undefined,
          to: query.to ? new Date(query.to) : undefined,
          types: types && types.length < AUDIT_EVENT_TYPES.length ? types : undefined,
        });
        const [plan] = await direct(url.toString(), [`EXPLAIN (ANALYZE, COSTS OFF, SUMMARY ON) ${text}`, params]);
        const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
        console.log(`\n-- ${name}\n${lines.slice(0, 12).join('\n')}${lines.length > 12 ? '\n  …' : ''}`);
        console.log(lines.filter((l: string) => l.startsWith('Execution Time')).join(''));
      }
    }
  } finally {
    await ctx.close();
    await direct(adminUrl, [`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

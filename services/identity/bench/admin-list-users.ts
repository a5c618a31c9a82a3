/**
 * `npm run bench:admin`: admin list-users against 200,000 users (and 1,000 with accented names). A contains search
 * on the email, the name or either, or two filters, a sort and a page of 100, over real HTTP: p50/p99 with 1 client
 * and with 16 concurrent clients, then the EXPLAIN ANALYZE plans of the statements the route runs. Prints figures; asserts nothing. The clients run in a
 * child process (`admin-list-users.js load`), so the server's event loop is its own. A search answered by the
 * walked plan is measured twice: on an instance that counts every total (what a first search costs) and on one
 * that reuses it while no user is written (the same search again: the next page, a new sort, a refresh).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createContext } from '../src/context';
import { planListUsers } from '../src/features/admin/list-query';
import { AdminRepository, listUsersSql, USER_COUNTER, walkIsCheaper } from '../src/features/admin/repository';
import { TrigramSample } from '../src/features/admin/search-sample';
import { indexProbes } from '../src/features/admin/search-trigrams';
import { SYSTEM_SOURCE } from '../src/shared/audit';
import { type CpuShares, cpuWindow } from './cpu';

const USERS = Number(process.env.BENCH_USERS || 200_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 2000);
const adminUrl = process.env.BENCH_DATABASE_URL_ADMIN || 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `identity_bench_admin_${randomBytes(3).toString('hex')}`;

/** Statements on a plain connection (no service statement timeout: seeding 200,000 users can take longer). */
async function direct(connectionString: string, ...statements: Array<[string, unknown[]?]>) {
  const c = new Client({ connectionString });
  await c.connect();
  try {
    for (const [sql, params] of statements) await c.query(sql, params);
  } finally {
    await c.end();
  }
}
const admin = (sql: string) => direct(adminUrl, [sql]);

/** One statement: first names × last names, a numbered email, creation times a minute apart. */
const SEED = `INSERT INTO users (id, email, name, created_at, updated_at)
  SELECT gen_random_uuid(),
         'user' || g || '.' || substr(md5(g::text), 1, 6) || '@example.com',
         (ARRAY['Alice','Bob','Carol','Dave','Erin','Frank','Grace','Heidi','Ivan','Judy','Mallory','Niaj','Olivia','Peggy','Rupert','Sybil','Trent','Victor','Walter','Yolanda'])[1 + g % 20]
           || ' ' || (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Johnson','Davies','Robinson','Wright','Thompson','Evans','Walker','White','Roberts','Green','Hall','Wood','Jackson','Clarke'])[1 + (g / 20) % 20]
           || ' ' || g,
         now() - g * interval '1 minute', now() - g * interval '1 minute'
  FROM generate_series(1, $1) g`;

/**
 * 1,000 more users with accented names (Müller, Mùller, Muller and Møller, which folds to moller), half of them with
 * `muller` in the email, a third banned and half verified, their creation times spread over the same 200,000 minutes.
 */
const SEED_ACCENTED = `INSERT INTO users (id, email, name, banned, email_verified, created_at, updated_at)
  SELECT gen_random_uuid(),
         'ext' || g || CASE WHEN g % 2 = 0 THEN '.muller' ELSE '' END || '@example.de',
         (ARRAY['Jürgen','Zoë','Anaïs','Björn','Max'])[1 + g % 5] || ' ' || (ARRAY['Müller','Mùller','Muller','Møller'])[1 + g % 4] || ' ' || g,
         g % 3 = 0, g % 2 = 0,
         now() - g * interval '200 minutes', now() - g * interval '200 minutes'
  FROM generate_series(1, 1000) g`;

const SCENARIOS: Array<[string, Record<string, string>]> = [
  ['email contains "user1234" (111 rows), sort createdAt desc', { searchValue: 'user1234', searchField: 'email' }],
  [
    'name contains "walker 19" (560 rows), sort name asc',
    { searchValue: 'walker 19', searchField: 'name', sortBy: 'name', sortDirection: 'asc' },
  ],
  ['name contains "olivia" (10,000 rows), sort createdAt desc', { searchValue: 'olivia', searchField: 'name' }],
  ['email contains "example" (every user), sort createdAt desc', { searchValue: 'example', searchField: 'email' }],
  ["no search, sort createdAt desc (the console's first page)", {}],
  [
    'any field contains "muller" (750 rows: names folded, or the email), sort createdAt desc',
    { searchValue: 'muller', searchField: 'any' },
  ],
  ['any field contains "olivia" (10,000 rows), sort createdAt desc', { searchValue: 'olivia', searchField: 'any' }],
  [
    'banned=true and emailVerified=true (166 rows), no search, sort createdAt desc',
    { banned: 'true', emailVerified: 'true' },
  ],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Response times of REQUESTS requests from `clients` keep-alive connections, one request in flight on each;
 * `done` is called as the last response arrives. autocannon by default: it writes prebuilt requests and parses
 * little, so the load generator takes about a third of the CPU that fetch (undici) takes per request, CPU the
 * server and PostgreSQL share on a small host. BENCH_LOAD_CLIENT=fetch measures with fetch instead.
 */
async function responseTimes(url: string, token: string, clients: number, done: () => void): Promise<number[]> {
  const times: number[] = [];
  const headers = { authorization: `Bearer ${token}` };
  if (process.env.BENCH_LOAD_CLIENT === 'fetch') {
    let left = REQUESTS;
    const worker = async () => {
      while (left-- > 0) {
        const start = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`list-users answered ${res.status}`);
        times.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: clients }, worker));
    done();
    return times;
  }
  let failed = 0;
  const statuses = new Map<number, number>();
  const run = autocannon({ url, headers, connections: clients, amount: REQUESTS, pipelining: 1, timeout: 10 });
  run.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status === 200) times.push(ms);
    else {
      failed++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    if (times.length + failed === REQUESTS) done();
  });
  // autocannon settles on its next one-second tick, not at the last response: hence `done`.
  const result = await run;
  if (failed || result.errors || result.timeouts) {
    const answered = [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
    throw new Error(
      `${url}: ${failed} non-200 answers (${answered || 'none'}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return times;
}

async function measure(url: string, token: string, clients: number): Promise<string> {
  const began = performance.now();
  const cpu = cpuWindow(process.ppid, true); // the server is the parent; this child is the load generator
  let seconds = 0;
  let shares: CpuShares | undefined;
  const times = await responseTimes(url, token, clients, () => {
    seconds = (performance.now() - began) / 1000;
    shares = cpu();
  });
  if (!shares) throw new Error('the load ended before its last response');
  times.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(7);
  const c = (n: number) => n.toFixed(2);
  return (
    `${String(clients).padStart(2)} client(s): p50 ${f(percentile(times, 50))} ms  p99 ${f(percentile(times, 99))} ms  ` +
    `${Math.round(times.length / seconds)} req/s  cpu (cores): server ${c(shares.server)}, load ${c(shares.load)}, ` +
    `pg+redis ${c(shares.services)}, other ${c(shares.other)}`
  );
}

async function main() {
  await admin(`CREATE DATABASE "${dbName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379/0',
    REDIS_PREFIX: `bench:${dbName}:`,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
  };
  const config = loadConfig(env);
  const quiet = { info() {}, warn() {}, error() {} };
  const ctx = await createContext(config, { migrate: true, logger: quiet });
  // BENCH_SERVER_LOG=warn prints the measured server's warnings and errors (a row that fails says why there).
  const serverLog = process.env.BENCH_SERVER_LOG;
  const app = await buildApp(ctx, { logger: serverLog ? { level: serverLog } : false });
  // A second instance that counts every total (a first search always does): the same database and sessions.
  const countingCtx = await createContext(loadConfig({ ...env, ADMIN_LIST_TOTAL_REUSE: 'false' }), { logger: quiet });
  const countingApp = await buildApp(countingCtx, { logger: false });
  try {
    const t = performance.now();
    // The GIN indexes took the rows through their pending list; VACUUM merges it and marks the pages all-visible (for
    // the words' index-only counts), as autovacuum would in service.
    await direct(url.toString(), [SEED, [USERS]], [SEED_ACCENTED], ['VACUUM ANALYZE users, user_words, search_words']);
    console.log(
      `seeded ${USERS} + 1,000 accented users in ${((performance.now() - t) / 1000).toFixed(1)} s (INSERT … SELECT generate_series, VACUUM ANALYZE)`,
    );
    const operator = await ctx.features.admin!.users.create(null, {
      email: 'ops@bench.test',
      password: 'bench password 123',
      name: 'Ops',
      role: 'admin',
    });
    const signedIn = await ctx.features.signIn.signIn.complete(
      await ctx.features.account.accounts.signIn(
        { email: operator.email, password: 'bench password 123' },
        SYSTEM_SOURCE,
      ),
      { source: SYSTEM_SOURCE, trustedDevice: null },
    );
    if (signedIn.kind !== 'signed-in') throw new Error('the operator has no second factor');
    const token = signedIn.current.session.token;
    const listening = async (server: typeof app) => {
      await server.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}${config.basePath}/admin/list-users`;
    };
    const [base, countingBase] = [await listening(app), await listening(countingApp)];
    const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`cpus ${(await import('node:os')).cpus().length}; load average before measuring: ${load}`);
    console.log(
      `node ${process.version}; ${REQUESTS} requests per row; GET ${config.basePath}/admin/list-users over HTTP (Bearer session)`,
    );
    const trigrams = new TrigramSample(ctx.sql, () => Date.now()); // as the service samples them
    await trigrams.take();
    const users = await new AdminRepository(ctx.sql).userCount();
    for (const [label, query] of SCENARIOS) {
      const search: Record<string, string> = query.searchValue ? { searchOperator: 'contains' } : {};
      const target = `?${new URLSearchParams({ ...query, ...search, limit: '100' })}`;
      const probe = await (await fetch(base + target, { headers: { authorization: `Bearer ${token}` } })).json();
      console.log(`\n${label}: total ${probe.total}, page ${probe.users.length}`);
      const plan = planListUsers({ ...query, ...search, limit: 100 }, (field, text) =>
        indexProbes(text, trigrams.of(field)),
      )!;
      const walked = plan.textSearch && walkIsCheaper(plan, probe.total, users);
      // Only the walked plan counts apart from its page, so only it has a total to reuse.
      const runs: Array<[string, string]> = walked
        ? [
            ['total counted (a first search; ADMIN_LIST_TOTAL_REUSE=false)', countingBase],
            ['total reused (the same search again, no user written since)', base],
          ]
        : [['', base]];
      for (const [name, server] of runs) {
        if (name) console.log(`  ${name}:`);
        await measureApart(server + target, token, 4); // warm-up
        for (const clients of [1, 16]) console.log(`  ${await measureApart(server + target, token, clients)}`);
      }
      const [counter] = await ctx.sql.query<{ stamp: string }>(USER_COUNTER);
      const known = { stamp: counter.stamp, total: probe.total };
      type Statement = readonly [string, { text: string; params: unknown[] }];
      const counterStatement: Statement = ['count: the counter', { text: USER_COUNTER, params: [] }];
      const statements: Statement[] = !plan.where
        ? [['page (walk the sort index)', listUsersSql(plan).walk], counterStatement]
        : !plan.textSearch
          ? [
              ['count', listUsersSql(plan).count],
              ['page (walk the sort index)', listUsersSql(plan).walk],
            ]
          : walked
            ? [
                ['count and page (walk the sort index)', listUsersSql(plan).walked],
                ['page (walk the sort index), total reused', listUsersSql(plan, known).walked],
              ]
            : [['count and page (all matches, then sort)', listUsersSql(plan).sorted]];
      for (const [name, stmt] of statements) {
        const rows = await ctx.sql.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${stmt.text}`,
          stmt.params,
        );
        console.log(
          `  EXPLAIN ANALYZE (${name}): ${stmt.text.replace(/SELECT u\.id.*? FROM/, 'SELECT … FROM').replace(/\s+/g, ' ')}`,
        );
        for (const r of rows) console.log(`    ${r['QUERY PLAN']}`);
      }
    }
    // The console's dashboard: its counts and 30 days of sign-ups on the same 200,000 users.
    const statsUrl = base.replace(/\/admin\/list-users$/, '/admin/stats');
    console.log(`\nGET ${config.basePath}/admin/stats (the console's dashboard):`);
    await measureApart(statsUrl, token, 4); // warm-up
    for (const clients of [1, 16]) console.log(`  ${await measureApart(statsUrl, token, clients)}`);
  } finally {
    await countingApp.close();
    await countingCtx.close();
    await app.close();
    await ctx.close();
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

/** `measure` in a child process (the load generator off the server's event loop); answers its result line. */
async function measureApart(url: string, token: string, clients: number): Promise<string> {
  const load = JSON.stringify({ url, token, clients });
  const child = fork(__filename, ['load'], { env: { ...process.env, BENCH_LOAD: load } });
  let line: string | undefined;
  child.once('message', (message: string) => {
    line = message;
  });
  const [code] = (await once(child, 'close')) as [number | null]; // after 'close' every message has arrived
  if (code !== 0 || line === undefined) throw new Error(`load generator exited (${code}) without a result`);
  return line;
}

if (process.argv[2] === 'load') {
  const { url, token, clients } = JSON.parse(process.env.BENCH_LOAD!) as {
    url: string;
    token: string;
    clients: number;
  };
  measure(url, token, clients).then(
    (line) => process.send!(line, () => process.exit(0)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}

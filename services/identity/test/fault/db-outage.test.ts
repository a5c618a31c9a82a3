import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import type { ApiProcess } from '../setup/api-process';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * PostgreSQL restarted, stopped, hung or out of pool connections under a running API process (docs/operations.md,
 * "What happens when a dependency fails"): the process lives, requests answer 503 SERVICE_UNAVAILABLE with
 * Retry-After within the configured bound, liveness stays fast, readiness fails and comes back by itself, failed
 * sign-ins of the outage do not count against the account, and the service recovers without a restart.
 */

/** Generous against the configured 2 s bounds (connect and query), for a loaded 2-core machine. */
const BOUND_MS = 8000;
const SLOW_ACCOUNT_LIMIT = 3;
/** What the test's own client adds to a request's time on a loaded machine (sending, reading, its event loop). */
const DEADLINE_SLACK_MS = 150;

let stack: FaultStack;
/** Bounds of 2 s, and a per-account failure limit of 3 (rate limits on, route limits out of the way). */
let api: ApiProcess;
/** A pool of 2 connections, a short wait for one (1.5 s), and queries allowed long enough to hold both. */
let small: ApiProcess;
/** The shipped settings: a 5 s request deadline, 5 s to wait for a connection, 10 s statements. */
let shipped: ApiProcess;
let configDir: string;

beforeAll(async () => {
  stack = await startFaultStack();
  configDir = mkdtempSync(join(tmpdir(), 'identity-db-outage-'));
  const configFile = join(configDir, 'config.json');
  const generous = { windowSec: 60, max: 10_000 };
  writeFileSync(
    configFile,
    JSON.stringify({
      rateLimit: {
        global: generous,
        rules: { '/sign-in/email': generous, '/sign-up/email': generous },
        accountFailures: { windowSec: 900, max: SLOW_ACCOUNT_LIMIT },
      },
    }),
  );
  [api, small, shipped] = await Promise.all([
    stack.api({
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '2000',
      RATE_LIMIT_ENABLED: 'true',
      CONFIG_FILE: configFile,
    }),
    stack.api({ DB_POOL_SIZE: '2', DB_CONNECT_TIMEOUT_MS: '1500', DB_QUERY_TIMEOUT_MS: '10000' }),
    stack.api(),
  ]);
}, 60_000);

afterAll(async () => {
  await stack?.destroy();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  ms: number;
}

async function call(target: ApiProcess, path: string, body?: object, bearer?: string): Promise<Answer> {
  const started = Date.now();
  const headers: Record<string, string> = { origin: 'http://localhost:3000' };
  if (body) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${target.base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers,
    body: body ? JSON.stringify(body) : undefined,
    // A request that never answers fails the test instead of hanging it.
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : {},
    retryAfter: res.headers.get('retry-after'),
    ms: Date.now() - started,
  };
}

const signUp = (target: ApiProcess, email: string) =>
  call(target, '/sign-up/email', { email, password: PASSWORD, name: 'Outage' });
const signIn = (target: ApiProcess, email: string, password = PASSWORD) =>
  call(target, '/sign-in/email', { email, password });

/** The clean outage answer: 503 from the catalogue, a Retry-After, within the bound. */
function expectUnavailable(answer: Answer): void {
  expect([answer.status, answer.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  expect(answer.body.message).toEqual(expect.any(String));
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(answer.ms).toBeLessThan(BOUND_MS);
}

function expectAlive(...targets: ApiProcess[]): void {
  for (const target of targets) expect([target.child.exitCode, target.child.signalCode]).toEqual([null, null]);
}

/**
 * Takes `email` in an open transaction of a test client: the API's sign-up of it then waits inside its own
 * transaction, on the unique index, until this one ends. Triggers are off in it (user counter slots stay free).
 */
async function holdEmail(email: string): Promise<Client> {
  const holder = await stack.pg.client();
  await holder.query('BEGIN');
  await holder.query('SET LOCAL session_replication_role = replica');
  await holder.query(`INSERT INTO users (id, email, name) VALUES (gen_random_uuid(), $1, 'holder')`, [email]);
  return holder;
}

/** Until `n` of the API's statements wait for a lock. */
async function lockWaiters(n: number): Promise<void> {
  for (let i = 0; ; i++) {
    const [{ count }] = await stack.pg.query<{ count: number }>(
      `select count(*)::int as count from pg_stat_activity where application_name = 'identity' and wait_event_type = 'Lock'`,
    );
    if (count >= n) return;
    if (i > 100) throw new Error(`only ${count} of ${n} API statements wait for a lock`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function untilReady(target: ApiProcess): Promise<Answer> {
  let answer = await call(target, '/health/ready');
  for (let i = 0; i < 60 && answer.status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 250));
    answer = await call(target, '/health/ready');
  }
  return answer;
}

/** Liveness answers at once without asking PostgreSQL. */
async function expectLive(target: ApiProcess): Promise<void> {
  for (const path of ['/ok', '/health/live']) {
    const answer = await call(target, path);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(1000);
  }
}

const failureKey = (email: string) =>
  `fault:sign-in-failures:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

describe.each(['fast', 'immediate'] as const)('PostgreSQL restarted (%s) with a transaction in flight', (mode) => {
  it('fails that request cleanly, the process lives, and the next requests succeed without a restart', async () => {
    const email = uniqueEmail(`restart-${mode}`);
    const holder = await holdEmail(email);
    try {
      const pending = signUp(api, email);
      await lockWaiters(1);
      await stack.pg.restart(mode);
      expectUnavailable(await pending);
    } finally {
      await holder.end().catch(() => undefined);
    }
    expectAlive(api, small);
    // The server is back: the pool drops the killed connections and opens new ones by itself; the transaction
    // that was cut left nothing behind, so the same sign-up now goes through.
    expect((await signUp(api, email)).status).toBe(200);
    expect((await signIn(small, email)).status).toBe(200);
    expect((await call(api, '/health/ready')).status).toBe(200);
  });
});

it('PostgreSQL stopped: 503 with Retry-After at once, liveness fast, readiness 503; started: recovers by itself', async () => {
  const email = uniqueEmail('stopped');
  const user = await signUp(api, email);
  expect(user.status).toBe(200);
  await stack.pg.stop('fast');
  const logged = api.output().length;
  try {
    expectUnavailable(await signIn(api, email));
    expectUnavailable(await signUp(api, uniqueEmail('stopped-new')));
    // One warn line per refused request, without a stack trace.
    const lines = api
      .output()
      .slice(logged)
      .split('\n')
      .filter((l) => l.includes('"database unavailable"'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: 40, msg: 'database unavailable' });
    expect(lines.join('\n')).not.toContain('"stack"');
    expectUnavailable(await call(api, '/list-sessions', undefined, user.body.token as string));
    await expectLive(api);
    const ready = await call(api, '/health/ready');
    expect([ready.status, (ready.body.checks as Record<string, string>).database]).toEqual([503, 'failing']);
    expect(ready.ms).toBeLessThan(BOUND_MS);
    expectAlive(api, small);
  } finally {
    await stack.pg.start();
  }
  expect((await untilReady(api)).status).toBe(200);
  expect((await signIn(api, email)).status).toBe(200);
});

it('PostgreSQL hung (SIGSTOP): 503 within the bound instead of waiting; resumed: recovers by itself', async () => {
  const email = uniqueEmail('hung');
  expect((await signUp(api, email)).status).toBe(200);
  stack.pg.pause();
  try {
    const [signInAnswer, signUpAnswer] = await Promise.all([signIn(api, email), signUp(api, uniqueEmail('hung-new'))]);
    expectUnavailable(signInAnswer);
    expectUnavailable(signUpAnswer);
    await expectLive(api);
    const ready = await call(api, '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(BOUND_MS);
    expectAlive(api, small);
  } finally {
    stack.pg.resume();
  }
  expect((await untilReady(api)).status).toBe(200);
  expect((await signIn(api, email)).status).toBe(200);
});

/**
 * The request deadline (docs/operations.md, "Request deadline"): with the shipped settings a statement may run
 * 10 s and a connection may be waited for 5 s, but no request waits past its 5 s deadline for both together. More
 * requests than the pool has connections: ten wait on a hung connection, the rest for a connection.
 */
it('PostgreSQL hung under the shipped settings: every request answers 503 within its 5 s deadline', async () => {
  const email = uniqueEmail('hung-shipped');
  const user = await signUp(shipped, email);
  expect(user.status).toBe(200);
  const token = user.body.token as string;
  stack.pg.pause();
  let answers: Array<[string, Answer]>;
  try {
    answers = await Promise.all([
      ...Array.from({ length: 12 }, () => signIn(shipped, email).then((a): [string, Answer] => ['sign-in', a])),
      signUp(shipped, uniqueEmail('hung-shipped-new')).then((a): [string, Answer] => ['sign-up', a]),
      call(shipped, '/list-sessions', undefined, token).then((a): [string, Answer] => ['list-sessions', a]),
      call(shipped, '/organization/create', { name: 'Hung', slug: `hung-${Date.now()}` }, token).then(
        (a): [string, Answer] => ['organization/create', a],
      ),
    ]);
    expectAlive(shipped);
  } finally {
    stack.pg.resume();
  }
  for (const [route, answer] of answers) {
    expect({ route, status: answer.status, code: answer.body.code }).toEqual({
      route,
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    // Measured from before the request was sent: the deadline counts from its arrival.
    expect({ route, withinDeadline: answer.ms < 5000 + DEADLINE_SLACK_MS }).toEqual({ route, withinDeadline: true });
  }
  expect((await untilReady(shipped)).status).toBe(200);
  expect((await signIn(shipped, email)).status).toBe(200);
});

it('sign-ins refused by an outage do not count toward the per-account lockout; wrong passwords still do', async () => {
  const email = uniqueEmail('lockout');
  expect((await signUp(api, email)).status).toBe(200);
  const redis = stack.redis.client();
  try {
    // One wrong password: counted.
    expect((await signIn(api, email, 'not the password')).status).toBe(401);
    expect(await redis.get(failureKey(email))).toBe('1');
    await stack.pg.stop('fast');
    try {
      // More attempts than the limit: each answers 503 (never 429), and none is counted.
      for (let i = 0; i < SLOW_ACCOUNT_LIMIT + 2; i++) expectUnavailable(await signIn(api, email));
      expect(await redis.get(failureKey(email))).toBe('1');
    } finally {
      await stack.pg.start();
    }
    expect((await untilReady(api)).status).toBe(200);
    // The owner signs in with the right password at once; the success clears the count.
    expect((await signIn(api, email)).status).toBe(200);
    expect(await redis.get(failureKey(email))).toBeNull();
  } finally {
    redis.disconnect();
  }
});

it('pool exhausted: a request that finds no free connection answers 503 within the bound, not a hang', async () => {
  const [first, second] = [uniqueEmail('held-1'), uniqueEmail('held-2')];
  const other = uniqueEmail('exhausted');
  expect((await signUp(small, other)).status).toBe(200);
  const holders = [await holdEmail(first), await holdEmail(second)];
  let held: Promise<Answer[]> | undefined;
  try {
    // Both pool connections wait inside their sign-up transactions.
    held = Promise.all([signUp(small, first), signUp(small, second)]);
    await lockWaiters(2);
    expectUnavailable(await signIn(small, other));
    await expectLive(small);
    const ready = await call(small, '/health/ready');
    expect([ready.status, (ready.body.checks as Record<string, string>).database]).toEqual([503, 'failing']);
    expectAlive(small, api);
  } finally {
    for (const holder of holders) await holder.query('ROLLBACK').finally(() => holder.end());
  }
  // The held requests finish once their locks go; then the pool serves again.
  expect((await held!).map((a) => a.status)).toEqual([200, 200]);
  expect((await signIn(small, other)).status).toBe(200);
});

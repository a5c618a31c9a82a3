import type { Client } from 'pg';
import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * PostgreSQL restarted again and again under varied load (docs/operations.md, "What happens when a dependency
 * fails"): sign-ins, session lookups, password changes, bans and organization creations run all the time, and at
 * every restart some of them are inside a transaction held by a row lock. PostgreSQL ends every connection with
 * FATAL 57P01 wherever it is: idle in the pool, checked out between two statements, handed to a waiting request,
 * reading the database's clock (synced every second here). The process must live through every restart (the
 * test fails at the first exit), answer only 200, the refusals the operations may give, or a clean 503, and
 * serve again after each restart without being restarted itself.
 */
const RESTARTS = Number(process.env.FAULT_PG_RESTARTS ?? 20);
const WORKERS = 10;

let stack: FaultStack;
let api: ApiProcess;

beforeAll(async () => {
  stack = await startFaultStack();
  api = await stack.api({
    // A small pool, so requests wait for connections and get them handed over from others' answers.
    DB_POOL_SIZE: '3',
    DB_CONNECT_TIMEOUT_MS: '2000',
    DB_QUERY_TIMEOUT_MS: '2000',
    CLOCK_SYNC_INTERVAL_SEC: '1',
  });
}, 60_000);

afterAll(async () => {
  await stack?.destroy();
});

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

async function call(path: string, body?: object, bearer?: string): Promise<Answer> {
  const headers: Record<string, string> = { origin: PUBLIC_URL };
  if (body) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  try {
    const res = await fetch(`${api.base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers,
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    // The process gone: the next check says so with its output.
    return { status: 0, body: null };
  }
}

async function must(path: string, body?: object, bearer?: string): Promise<Record<string, unknown>> {
  for (let i = 0; ; i++) {
    const answer = await call(path, body, bearer);
    if (answer.status === 200) return answer.body!;
    if (answer.status !== 503 || i > 40) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Person {
  id: string;
  email: string;
  token: string;
}

async function person(tag: string): Promise<Person> {
  const email = uniqueEmail(tag);
  const up = await must('/sign-up/email', { email, password: PASSWORD, name: tag });
  return { id: (up.user as { id: string }).id, email, token: up.token as string };
}

function expectAlive(): void {
  if (api.child.exitCode !== null || api.child.signalCode !== null)
    throw new Error(
      `the API process exited (${api.child.exitCode ?? api.child.signalCode}):\n${api.output().slice(-4000)}`,
    );
}

/** Until `n` of the API's statements wait for a lock, or a second has passed (the load may have taken its time). */
async function lockWaiters(n: number): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const [{ count }] = await stack.pg.query<{ count: number }>(
      `select count(*)::int as count from pg_stat_activity where application_name = 'identity' and wait_event_type = 'Lock'`,
    );
    if (count >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Between restarts, the same FATAL 57P01 many times over: every connection of the API ended by
 * pg_terminate_backend every 20 ms for `ms`, so the message finds connections in every state the load puts them in.
 */
async function terminateStorm(ms: number): Promise<void> {
  const killer = await stack.pg.client();
  try {
    for (const until = Date.now() + ms; Date.now() < until; ) {
      await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'identity' AND pid <> pg_backend_pid()`,
      );
      await new Promise((r) => setTimeout(r, 20));
      expectAlive();
    }
  } finally {
    await killer.end().catch(() => undefined);
  }
}

async function untilReady(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    expectAlive();
    if ((await call('/health/ready')).status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready again:\n${api.output().slice(-4000)}`);
}

/** What each operation may answer besides 200 and 503, by what the load does to the same rows in parallel. */
const ALLOWED: Record<string, number[]> = {
  'sign-in': [],
  'get-session': [],
  'change-password': [],
  ban: [],
  unban: [],
  'organization/create': [],
  'held sign-up': [],
  'held organization': [],
};

it(`the API process lives through ${RESTARTS} PostgreSQL restarts under load and recovers after each`, async () => {
  const admin = await person('admin');
  await stack.pg.query("UPDATE users SET role = 'admin' WHERE id = $1", [admin.id]);
  const people = await Promise.all(Array.from({ length: WORKERS }, (_, i) => person(`load-${i}`)));
  const victim = await person('victim');

  const answers: Array<{ op: string; status: number; body: unknown }> = [];
  const note = (op: string, answer: Answer) => answers.push({ op, status: answer.status, body: answer.body });
  let running = true;

  const operations = [
    async (p: Person) => note('sign-in', await call('/sign-in/email', { email: p.email, password: PASSWORD })),
    async (p: Person) => note('get-session', await call('/get-session?disableCookieCache=true', undefined, p.token)),
    async (p: Person) =>
      note(
        'change-password',
        await call('/change-password', { currentPassword: PASSWORD, newPassword: PASSWORD }, p.token),
      ),
    async () => note('ban', await call('/admin/ban-user', { userId: victim.id, banReason: 'load' }, admin.token)),
    async () => note('unban', await call('/admin/unban-user', { userId: victim.id }, admin.token)),
    async (p: Person) =>
      note(
        'organization/create',
        await call('/organization/create', { name: 'Load', slug: `load-${crypto.randomUUID()}` }, p.token),
      ),
  ];
  const load = people.map(async (p, i) => {
    for (let n = i; running; n++) {
      await operations[n % operations.length](p);
      // A session the load ended (a ban does not touch these users; nothing else ends one) would be a finding.
    }
  });

  try {
    for (let round = 0; round < RESTARTS; round++) {
      // Two transactions held mid-way by a row lock of the test's: a sign-up on the unique email, an organization
      // on the unique slug.
      const email = uniqueEmail(`held-${round}`);
      const slug = `held-${round}-${crypto.randomUUID()}`;
      const holder: Client = await stack.pg.client();
      await holder.query('BEGIN');
      await holder.query('SET LOCAL session_replication_role = replica');
      await holder.query(`INSERT INTO users (id, email, name) VALUES (gen_random_uuid(), $1, 'holder')`, [email]);
      await holder.query(
        `INSERT INTO organizations (id, name, slug, created_at) VALUES (gen_random_uuid(), 'holder', $1, now())`,
        [slug],
      );
      const held = [
        call('/sign-up/email', { email, password: PASSWORD, name: 'Held' }).then((a) => note('held sign-up', a)),
        call('/organization/create', { name: 'Held', slug }, people[round % WORKERS].token).then((a) =>
          note('held organization', a),
        ),
      ];
      await lockWaiters(2);
      await stack.pg.restart(round % 2 === 0 ? 'fast' : 'immediate');
      await holder.end().catch(() => undefined);
      expectAlive();
      await Promise.all(held);
      await untilReady();
      await terminateStorm(500);
      // Serves again: a sign-in of its own succeeds (with retries only while PostgreSQL still starts).
      await must('/sign-in/email', { email: admin.email, password: PASSWORD });
      expectAlive();
    }
  } finally {
    running = false;
    await Promise.all(load);
  }
  expectAlive();

  const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 503 && !ALLOWED[a.op].includes(a.status));
  expect(unexpected).toEqual([]);
  // The load ran through the restarts: many answers of each kind, and the outage answered cleanly.
  for (const op of Object.keys(ALLOWED).filter((o) => !o.startsWith('held')))
    expect(answers.filter((a) => a.op === op && a.status === 200).length).toBeGreaterThan(0);
  // Every held transaction was in flight at a restart: cut, and answered cleanly.
  expect(answers.filter((a) => a.op.startsWith('held')).length).toBe(2 * RESTARTS);
  for (const a of answers.filter((x) => x.status === 503))
    expect(a.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(api.output()).not.toContain('"level":50');
}, 600_000);

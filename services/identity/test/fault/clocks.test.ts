import { existsSync } from 'node:fs';
import { Pool } from 'pg';
import { DatabaseClock } from '../../src/infra/database-clock';
import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * Two API instances on one stack whose clocks are 10 minutes apart (one runs under libfaketime). Every expiry
 * that more than one instance decides follows the database's clock, so the instances agree: a link made on one
 * works on the other, a ban set on one holds on the other and lapses on both at the same moment, and a session
 * made on one is valid on the other. Lifetimes are set shorter than the skew, so a local clock would show.
 */
const FAKETIME_LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const SHORT = {
  RESET_PASSWORD_TOKEN_TTL_SEC: '300',
  SESSION_EXPIRES_IN_SEC: '300',
  SESSION_UPDATE_AGE_SEC: '60',
};

let stack: FaultStack;
/** The instance on the machine's clock. */
let onTime: ApiProcess;
/** The instance whose clock runs 10 minutes ahead. */
let ahead: ApiProcess;
/** An administrator's session on each instance (each used only where it was made). */
const adminTokens = new Map<ApiProcess, string>();

beforeAll(async () => {
  if (!existsSync(FAKETIME_LIB)) throw new Error(`clock fault tests need libfaketime (${FAKETIME_LIB})`);
  stack = await startFaultStack();
  [onTime, ahead] = await Promise.all([
    stack.api(SHORT),
    stack.api({ ...SHORT, LD_PRELOAD: FAKETIME_LIB, FAKETIME: '+10m', DONT_FAKE_MONOTONIC: '1' }),
  ]);
  const admin = await signUp(onTime);
  await stack.pg.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
  for (const api of [onTime, ahead]) adminTokens.set(api, (await signIn(api, admin.email)).token!);
}, 60_000);
afterAll(() => stack?.destroy());

const call = (api: ApiProcess, path: string, body?: unknown, token?: string) =>
  fetch(`${api.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    redirect: 'manual',
    headers: {
      origin: PUBLIC_URL,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function signUp(api: ApiProcess): Promise<{ email: string; userId: string; token: string }> {
  const email = uniqueEmail('clock');
  const res = await call(api, '/sign-up/email', { email, password: PASSWORD, name: 'Clock' });
  if (res.status !== 200) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { email, userId: body.user.id, token: body.token };
}

async function signIn(api: ApiProcess, email: string): Promise<{ status: number; code?: string; token?: string }> {
  const res = await call(api, '/sign-in/email', { email, password: PASSWORD });
  const body = await res.json();
  return { status: res.status, code: body.code, token: body.token };
}

async function sessionUser(api: ApiProcess, token: string): Promise<string | null> {
  const res = await call(api, `/get-session?disableCookieCache=true`, undefined, token);
  return (await res.json())?.user?.id ?? null;
}

/** The reset token the last reset request for `userId` stored (the mail carries the same one). */
async function resetToken(userId: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const rows = await stack.pg.query<{ identifier: string }>(
      `SELECT identifier FROM verifications WHERE value = $1 AND identifier LIKE 'reset-password:%'
       ORDER BY created_at DESC LIMIT 1`,
      [userId],
    );
    if (rows[0]) return rows[0].identifier.slice('reset-password:'.length);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no reset token stored');
}

const ban = (api: ApiProcess, userId: string, banExpiresIn: number) =>
  call(api, '/admin/ban-user', { userId, banExpiresIn }, adminTokens.get(api)).then((r) => r.status);

/** Milliseconds until the user's ban expires, by the database's clock. */
async function untilBanLapses(userId: string): Promise<number> {
  const [row] = await stack.pg.query<{ ms: number }>(
    'SELECT extract(epoch FROM ban_expires - clock_timestamp())::float8 * 1000 AS ms FROM users WHERE id = $1',
    [userId],
  );
  return row.ms;
}

/** A gauge's value on the instance's /metrics (at the root of its port). */
async function metric(api: ApiProcess, name: string): Promise<number | undefined> {
  const text = await (await fetch(new URL('/metrics', api.base))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

it('the two instances really run 10 minutes apart, and each measures its offset from the database', async () => {
  const dateOf = async (api: ApiProcess) => Date.parse((await fetch(`${api.base}/health/live`)).headers.get('date')!);
  const skew = (await dateOf(ahead)) - (await dateOf(onTime));
  expect(skew).toBeGreaterThan(9 * 60_000);
  expect(skew).toBeLessThan(11 * 60_000);
  // The database (this machine's clock) is 600 s behind the instance ahead.
  expect(await metric(ahead, 'identity_clock_offset_seconds')).toBeCloseTo(-600, 0);
  expect(Math.abs((await metric(onTime, 'identity_clock_offset_seconds'))!)).toBeLessThan(0.5);
  expect(await metric(ahead, 'identity_clock_sync_age_seconds')).toBeGreaterThanOrEqual(0);
  const warning = "clock: this machine's clock is far from the database's";
  expect(ahead.output()).toContain(warning);
  expect(onTime.output()).not.toContain(warning);
});

describe.each([
  ['on time', 'ahead', () => [onTime, ahead]],
  ['ahead', 'on time', () => [ahead, onTime]],
])('made on the instance %s, used on the one %s', (_from, _to, pair) => {
  it('a reset link works on the other instance', async () => {
    const [from, to] = pair();
    const user = await signUp(from);
    const asked = await call(from, '/request-password-reset', { email: user.email, redirectTo: '/done' });
    expect(asked.status).toBe(200);
    const token = await resetToken(user.userId);
    const link = await call(to, `/reset-password/${token}?callbackURL=${encodeURIComponent('/done')}`);
    expect(link.headers.get('location')).toBe(`/done?token=${token}`);
    const reset = await call(to, '/reset-password', { token, newPassword: `${PASSWORD} again` });
    expect([reset.status, await reset.json()]).toEqual([200, { status: true }]);
  });

  it('a session made on one is valid on the other', async () => {
    const [from, to] = pair();
    const user = await signUp(from);
    expect(await sessionUser(to, user.token)).toBe(user.userId);
    expect(await sessionUser(from, user.token)).toBe(user.userId);
    const [row] = await stack.pg.query('SELECT 1 FROM sessions WHERE token = $1', [user.token]);
    expect(row).toBeDefined();
  });

  it('a 5-minute ban holds on both instances', async () => {
    const [from, to] = pair();
    const user = await signUp(from);
    expect(await ban(from, user.userId, 300)).toBe(200);
    expect(await signIn(to, user.email)).toMatchObject({ status: 403, code: 'BANNED_USER' });
    expect(await signIn(from, user.email)).toMatchObject({ status: 403, code: 'BANNED_USER' });
    const [row] = await stack.pg.query<{ banned: boolean }>('SELECT banned FROM users WHERE id = $1', [user.userId]);
    expect(row.banned).toBe(true);
  });

  it('a ban lapses at the same moment on both instances', async () => {
    const [from] = pair();
    // Two users banned alike: each instance decides for its own user, so one lifting a lapsed ban cannot
    // decide for the other.
    const [first, second] = [await signUp(from), await signUp(from)];
    expect(await ban(from, first.userId, 3)).toBe(200);
    expect(await ban(from, second.userId, 3)).toBe(200);
    expect(await signIn(onTime, first.email)).toMatchObject({ status: 403, code: 'BANNED_USER' });
    expect(await signIn(ahead, second.email)).toMatchObject({ status: 403, code: 'BANNED_USER' });
    // At most the 3 s asked for (a ban stamped by a clock 10 minutes ahead must not hold the test for 10 minutes).
    const wait = Math.min(Math.max(0, await untilBanLapses(first.userId)), 3000) + 300;
    await new Promise((r) => setTimeout(r, wait));
    expect(await signIn(onTime, first.email)).toMatchObject({ status: 200 });
    expect(await signIn(ahead, second.email)).toMatchObject({ status: 200 });
  });
});

describe('while the database cannot be read', () => {
  it('the clock goes on from its last reading, and reads the database again once it is back', async () => {
    const pool = new Pool({ connectionString: stack.pg.url, connectionTimeoutMillis: 1000 });
    pool.on('error', () => undefined);
    const notes: string[] = [];
    const log = { info: (_: object, m: string) => notes.push(m), warn: (_: object, m: string) => notes.push(m) };
    const clock = new DatabaseClock({ connect: () => pool.connect(), intervalMs: 60_000, log });
    try {
      await clock.start();
      expect(clock.syncAgeMs).not.toBeNull();
      // This process runs on the machine's clock, like the database: the two agree within the round trip.
      expect(Math.abs(clock.now() - Date.now())).toBeLessThan(50);
      const before = clock.offsetMs;
      await stack.pg.stop('fast');
      try {
        await clock.sync();
        expect(notes).toContain("clock: cannot read the database's clock; going on from the last reading");
        expect(clock.offsetMs).toBe(before);
        expect(Math.abs(clock.now() - Date.now())).toBeLessThan(50);
        await new Promise((r) => setTimeout(r, 200));
        expect(clock.syncAgeMs!).toBeGreaterThanOrEqual(200);
      } finally {
        await stack.pg.start();
      }
      await clock.sync();
      expect(notes).toContain("clock: reading the database's clock again");
      expect(clock.syncAgeMs!).toBeLessThan(200);
    } finally {
      await clock.stop();
      await pool.end();
    }
  }, 30_000);
});

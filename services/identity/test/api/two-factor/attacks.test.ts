import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../src/app';
import { loadConfig } from '../../../src/config';
import { type AppContext, createContext } from '../../../src/context';
import { PUBLIC_URL, startTestApp, TEST_SECRET, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { CookieJar, get, PASSWORD, post, signIn, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import {
  codeAt,
  count,
  type Enrolled,
  enrolledUser,
  eventsOf,
  nextStep,
  pendingSignIn,
  sessionsOf,
  TRUST_COOKIE,
  TWO_FACTOR_COOKIE,
} from './helpers';

/**
 * The attacks of docs/security.md aimed at the second factor: cross-site requests on every two-factor route (origin
 * check, login CSRF with a pending cookie), enumeration, brute force of codes (per pending sign-in, per account, per
 * address), forged, swapped and expired cookies, a key standing in for the person, and mass assignment.
 */
let t: TestApp;
let limited: TestApp; // per-address limits on, with the default two-factor rules
/** The service on the database's clock (no test clock): expiries as production decides them. */
let onDbClock: { app: FastifyInstance; ctx: AppContext };
beforeAll(async () => {
  t = await startTestApp();
  limited = await startTestApp(
    {},
    {
      RATE_LIMIT_ENABLED: 'true',
      REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}tf-${randomBytes(4).toString('hex')}:`,
    },
  );
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    REDIS_URL: process.env.TEST_REDIS_URL,
    REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
    AUTH_SECRET: TEST_SECRET,
    PUBLIC_URL,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
  });
  const ctx = await createContext(config, { logger: { info() {}, warn() {}, error() {} } });
  onDbClock = { ctx, app: await buildApp(ctx, { logger: false }) };
  await onDbClock.app.ready();
});
afterAll(async () => {
  await t?.close();
  await limited?.close();
  await onDbClock?.app.close();
  await onDbClock?.ctx.close();
});

/** Everything an attack on a user's second factor could change, to assert that it changed nothing. */
async function factorState(userId: string) {
  const q = (text: string) => t.ctx.sql.query(text, [userId]);
  return {
    user: await q('SELECT two_factor_enabled, updated_at FROM users WHERE id = $1'),
    factor: await q('SELECT * FROM two_factors WHERE user_id = $1'),
    challenges: await q('SELECT id, attempts FROM two_factor_challenges WHERE user_id = $1 ORDER BY id'),
    devices: await q('SELECT id, expires_at FROM two_factor_trusted_devices WHERE user_id = $1 ORDER BY id'),
    sessions: await q('SELECT id FROM sessions WHERE user_id = $1 ORDER BY id'),
    events: await q('SELECT count(*)::int AS n FROM audit_events WHERE target_id = $1'),
  };
}

/** A code that is not the user's now, nor one step either side. */
async function wrongCode(app: TestApp, secret: string): Promise<string> {
  const right = [await codeAt(app, secret, -1), await codeAt(app, secret), await codeAt(app, secret, 1)];
  let code = 100000;
  while (right.includes(String(code))) code++;
  return String(code);
}

const EVIL = 'https://evil.example.com';

describe('cross-site requests', () => {
  it('verify-totp with the pending cookie from an untrusted or null Origin is refused before any attempt counts', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const code = await codeAt(t, u.secret);
    for (const [origin, expected] of [
      [EVIL, 'INVALID_ORIGIN'],
      ['null', 'MISSING_OR_NULL_ORIGIN'],
    ] as const) {
      const res = await post(t.app, '/two-factor/verify-totp', { code }, { jar, origin });
      expect([origin, res.statusCode, res.json().code]).toEqual([origin, 403, expected]);
    }
    // no Origin, cookies, no Referer (a form post from a page hiding its origin): refused too
    const bare = await post(t.app, '/two-factor/verify-totp', { code }, { jar, origin: null });
    expect([bare.statusCode, bare.json().code]).toEqual([403, 'MISSING_OR_NULL_ORIGIN']);
    const crossSite = await post(
      t.app,
      '/two-factor/verify-totp',
      { code },
      {
        jar,
        origin: null,
        headers: { 'sec-fetch-site': 'cross-site' },
      },
    );
    expect([crossSite.statusCode, crossSite.json().code]).toEqual([403, 'INVALID_ORIGIN']);
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1 AND attempts = 0', [u.userId])).toBe(1);
    expect((await post(t.app, '/two-factor/verify-totp', { code }, { jar })).statusCode).toBe(200);
  });

  it('enable, disable and generate-backup-codes from another site change nothing', async () => {
    const u = await enrolledUser(t);
    for (const path of ['/two-factor/disable', '/two-factor/generate-backup-codes', '/two-factor/enable']) {
      const res = await post(t.app, path, { password: PASSWORD }, { jar: u.jar, origin: EVIL });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 403, 'INVALID_ORIGIN']);
    }
    expect(await count(t, 'users WHERE id = $1 AND two_factor_enabled', [u.userId])).toBe(1);
    expect(await count(t, 'audit_events WHERE target_id = $1 AND type LIKE $2', [u.userId, 'user.backup_codes%'])).toBe(
      0,
    );
  });

  it("login CSRF: an attacker's pending cookie planted in a victim's browser cannot be completed cross-site", async () => {
    const attacker = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, attacker.email);
    const victim = new CookieJar();
    victim.cookies.set(TWO_FACTOR_COOKIE, jar.get(TWO_FACTOR_COOKIE)!);
    const res = await post(
      t.app,
      '/two-factor/verify-totp',
      { code: await codeAt(t, attacker.secret) },
      {
        jar: victim,
        origin: EVIL,
      },
    );
    expect(res.statusCode).toBe(403);
    expect(victim.get('better-auth.session_token')).toBeUndefined();
  });
});

describe('enumeration', () => {
  it('a wrong password answers alike for users with and without a second factor and unknown emails', async () => {
    const withFactor = await enrolledUser(t);
    const without = await signUp(t.app);
    const answers = [];
    for (const email of [withFactor.email, without.email, uniqueEmail('nobody')]) {
      const res = await post(t.app, '/sign-in/email', { email, password: 'wrong password' });
      answers.push([res.statusCode, res.json(), res.headers['set-cookie'] ?? null]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0][0]).toBe(401);
  });

  it('the pending cookie names no user, and the routes answer alike for any forged one', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const value = jar.get(TWO_FACTOR_COOKIE)!;
    expect(value).not.toContain(u.userId);
    expect(value.toLowerCase()).not.toContain(u.email.split('@')[0].toLowerCase());
  });
});

describe('brute force', () => {
  it('per address: the verify routes answer RATE_LIMITED past their rule, and no session is made', async () => {
    const u = await enrolledUser(limited);
    const { jar } = await pendingSignIn(limited, u.email);
    const before = await sessionsOf(limited, u.userId);
    const answers = [];
    for (let i = 0; i < 11; i++) {
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/two-factor/verify-backup-code',
        remoteAddress: '198.51.100.77',
        headers: { origin: PUBLIC_URL, cookie: jar.header() },
        payload: { code: 'aaaaa-bbbbb' },
      });
      answers.push(res.statusCode);
    }
    expect(answers.at(-1)).toBe(429);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf(limited, u.userId)).toBe(before);
  });

  it('parallel guesses on one pending sign-in cannot pass its attempt limit', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(t.app, '/two-factor/verify-totp', { code: String(100000 + i * 7919).slice(0, 6) }, { jar: jar.clone() }),
      ),
    );
    const counted = answers.filter((r) => r.json().code === 'INVALID_CODE' || r.statusCode === 200).length;
    expect(counted).toBeLessThanOrEqual(5);
    expect(answers.some((r) => r.json().code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')).toBe(true);
  });
});

describe('cross-site requests on every two-factor route', () => {
  /** Each POST route with a body that would act for the signed-in user `u` (a pending sign-in for the verify routes). */
  const routes = (u: Enrolled, code: string): Array<[string, object]> => [
    ['/two-factor/enable', { password: PASSWORD }],
    ['/two-factor/disable', { password: PASSWORD }],
    ['/two-factor/get-totp-uri', { password: PASSWORD }],
    ['/two-factor/generate-backup-codes', { password: PASSWORD }],
    ['/two-factor/verify-totp', { code }],
    ['/two-factor/verify-backup-code', { code: u.backupCodes[0] }],
  ];
  const refusals: Array<[string, { origin: string | null; headers?: Record<string, string> }, string]> = [
    ['an untrusted Origin', { origin: 'https://evil.example.com' }, 'INVALID_ORIGIN'],
    ['a look-alike Origin', { origin: `${TRUSTED_ORIGIN}.evil.com` }, 'INVALID_ORIGIN'],
    ['Origin: null', { origin: 'null' }, 'MISSING_OR_NULL_ORIGIN'],
    ['no Origin and no Referer', { origin: null }, 'MISSING_OR_NULL_ORIGIN'],
    [
      'no Origin and an untrusted Referer',
      { origin: null, headers: { referer: 'https://evil.example.com/x' } },
      'INVALID_ORIGIN',
    ],
    ['Sec-Fetch-Site: cross-site', { origin: null, headers: { 'sec-fetch-site': 'cross-site' } }, 'INVALID_ORIGIN'],
  ];

  it.each(refusals)('%s is refused on each of them, with cookies, and changes nothing', async (_name, how, code) => {
    const u = await enrolledUser(t);
    // the browser holds the session and a pending sign-in of the same user (the verify routes read the latter)
    const { jar: pending } = await pendingSignIn(t, u.email);
    const before = await factorState(u.userId);
    for (const [path, body] of routes(u, await codeAt(t, u.secret))) {
      const jar = path.startsWith('/two-factor/verify') ? pending.clone() : u.jar.clone();
      const res = await post(t.app, path, body, { jar, ...how });
      expect([path, res.statusCode, res.json()]).toEqual([
        path,
        403,
        { code, message: code === 'INVALID_ORIGIN' ? 'Invalid origin' : 'Missing or null Origin' },
      ]);
      expect([path, res.headers['set-cookie']]).toEqual([path, undefined]);
    }
    expect(await factorState(u.userId)).toEqual(before);
  });

  it('positive controls: a trusted Referer without Origin passes, and so does a Bearer call without cookies', async () => {
    const u = await enrolledUser(t);
    const viaReferer = await post(
      t.app,
      '/two-factor/get-totp-uri',
      { password: PASSWORD },
      { jar: u.jar, origin: null, headers: { referer: `${TRUSTED_ORIGIN}/account` } },
    );
    expect(viaReferer.statusCode).toBe(200);
    const viaBearer = await post(
      t.app,
      '/two-factor/get-totp-uri',
      { password: PASSWORD },
      { bearer: u.token, origin: null },
    );
    expect(viaBearer.statusCode).toBe(200);
  });

  it('their GET twins (what a link or an image can trigger) never act: 400 or 405, nothing changes', async () => {
    const u = await enrolledUser(t);
    const { jar: pending } = await pendingSignIn(t, u.email);
    const before = await factorState(u.userId);
    for (const [path] of routes(u, '000000')) {
      const jar = path.startsWith('/two-factor/verify') ? pending.clone() : u.jar.clone();
      const res = await get(t.app, path, { jar });
      expect([path, [400, 405].includes(res.statusCode)]).toEqual([path, true]);
    }
    expect(await factorState(u.userId)).toEqual(before);
  });
});

describe('enumeration', () => {
  /** The answer as a client sees it, minus what differs per request (its id, date, timing). */
  const visible = (res: LightMyRequestResponse) => {
    const { date: _d, 'x-request-id': _id, 'server-timing': _st, ...headers } = res.headers;
    return { status: res.statusCode, headers, body: res.body };
  };

  it('a wrong password answers byte for byte the same with and without a second factor, and sets no pending cookie', async () => {
    const withFactor = await enrolledUser(t);
    const without = await signUp(t.app);
    const answers = [];
    for (const email of [withFactor.email, without.email]) {
      const jar = new CookieJar();
      const res = await post(t.app, '/sign-in/email', { email, password: 'not the password' }, { jar });
      expect(jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
      answers.push(visible(res));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].headers['set-cookie']).toBeUndefined();
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1', [withFactor.userId])).toBe(0);
  });

  it('the verify routes answer a pending sign-in of an unknown user, an expired one and a forged one alike', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const value = jar.get(TWO_FACTOR_COOKIE)!;
    const [id, signature] = value.split('.');
    const expired = await pendingSignIn(t, u.email);
    await t.ctx.sql.query("UPDATE two_factor_challenges SET expires_at = now() - interval '1 day' WHERE id = $1", [
      expired.jar.get(TWO_FACTOR_COOKIE)!.split('.')[0],
    ]);
    const answers = [];
    for (const cookie of [`${'x'.repeat(id.length)}.${signature}`, expired.jar.get(TWO_FACTOR_COOKIE)!, `${id}.AAAA`]) {
      const res = await post(
        t.app,
        '/two-factor/verify-totp',
        { code: '123456' },
        {
          headers: { cookie: `${TWO_FACTOR_COOKIE}=${cookie}` },
        },
      );
      answers.push(visible(res));
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0].status).toBe(401);
  });
});

describe('brute force of the codes', () => {
  it('per pending sign-in: five wrong codes of either kind, then it is given up (cookie cleared); each one audited', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const cookie = jar.get(TWO_FACTOR_COOKIE)!;
    const wrong = await wrongCode(t, u.secret);
    for (let i = 0; i < 5; i++) {
      const [path, code, expected] =
        i % 2 === 0
          ? ['/two-factor/verify-totp', wrong, 'INVALID_CODE']
          : ['/two-factor/verify-backup-code', 'zzzzz-zzzzz', 'INVALID_BACKUP_CODE'];
      const res = await post(t.app, path, { code }, { jar });
      expect([i, res.statusCode, res.json().code]).toEqual([i, 401, expected]);
    }
    const spent = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([spent.statusCode, spent.json().code]).toEqual([400, 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1', [u.userId])).toBe(0);
    // the old cookie, replayed, names nothing any more: even the right code does not pass
    const replay = await post(
      t.app,
      '/two-factor/verify-totp',
      { code: await codeAt(t, u.secret) },
      {
        headers: { cookie: `${TWO_FACTOR_COOKIE}=${cookie}` },
      },
    );
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'INVALID_TWO_FACTOR_COOKIE']);
    const failures = await eventsOf(t, u.userId, 'user.sign_in_failed');
    expect(failures.map((e) => e.details.secondFactor)).toEqual(['totp', 'backup-code', 'totp', 'backup-code', 'totp']);
    expect(await sessionsOf(t, u.userId)).toBe(1);
  });

  it('per user: wrong codes across pending sign-ins and both kinds lock the account (audited once); a right backup code is then refused and kept', async () => {
    const u = await enrolledUser(t);
    const wrong = await wrongCode(t, u.secret);
    let pending = new CookieJar();
    for (let i = 0; i < 10; i++) {
      if (i % 4 === 0) pending = (await pendingSignIn(t, u.email)).jar; // a new pending sign-in every 4 tries
      const res =
        i % 2 === 0
          ? await post(t.app, '/two-factor/verify-totp', { code: wrong }, { jar: pending })
          : await post(t.app, '/two-factor/verify-backup-code', { code: 'yyyyy-yyyyy' }, { jar: pending });
      expect([i, res.statusCode]).toEqual([i, 401]);
    }
    const locked = await eventsOf(t, u.userId, 'user.two_factor_locked');
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ actor_type: 'anonymous', details: { failures: 10 } });
    expect(await eventsOf(t, u.userId, 'user.sign_in_failed')).toHaveLength(10);
    const { jar } = await pendingSignIn(t, u.email);
    const backup = await post(t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar });
    expect([backup.statusCode, backup.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    const totp = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([totp.statusCode, totp.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 10', [u.userId])).toBe(1);
    expect(await sessionsOf(t, u.userId)).toBe(1);
    // a new password sign-in does not reset the lock
    const again = await pendingSignIn(t, u.email);
    const still = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, again);
    expect(still.json().code).toBe('ACCOUNT_TEMPORARILY_LOCKED');
  });
});

describe('forged, swapped and stale cookies', () => {
  it("another user's pending cookie with my code: the code is checked against that user's secret, and counted there", async () => {
    const victim = await enrolledUser(t);
    const attacker = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, victim.email);
    const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, attacker.secret) }, { jar });
    expect([res.statusCode, res.json().code]).toEqual([401, 'INVALID_CODE']);
    expect(await sessionsOf(t, victim.userId)).toBe(1);
    expect(await sessionsOf(t, attacker.userId)).toBe(1);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 1', [victim.userId])).toBe(1);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 0', [attacker.userId])).toBe(1);
  });

  it("a pending id re-signed with another cookie's signature, or another signed cookie of the service in its place, names no sign-in", async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const other = await pendingSignIn(t, (await enrolledUser(t)).email);
    const [mine] = jar.get(TWO_FACTOR_COOKIE)!.split('.');
    const [, theirSignature] = other.jar.get(TWO_FACTOR_COOKIE)!.split('.');
    // a trusted-device cookie and a session token cookie are signed by the same signer: not pending sign-ins
    const trusted = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret), trustDevice: true }, trusted);
    nextStep(t);
    for (const cookie of [`${mine}.${theirSignature}`, trusted.jar.get(TRUST_COOKIE)!, u.jar.get(TOKEN_COOKIE)!]) {
      const res = await post(
        t.app,
        '/two-factor/verify-totp',
        { code: await codeAt(t, u.secret) },
        {
          headers: { cookie: `${TWO_FACTOR_COOKIE}=${cookie}` },
        },
      );
      expect([cookie, res.statusCode, res.json().code]).toEqual([cookie, 401, 'INVALID_TWO_FACTOR_COOKIE']);
    }
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1 AND attempts = 0', [u.userId])).toBe(1);
  });

  it('a pending cookie in the trusted-device cookie, or a device cookie re-signed, is no trusted device', async () => {
    const u = await enrolledUser(t);
    const trusted = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret), trustDevice: true }, trusted);
    const device = trusted.jar.get(TRUST_COOKIE)!;
    const { jar: pending } = await pendingSignIn(t, u.email);
    const [deviceId] = device.split('.');
    const [, pendingSignature] = pending.get(TWO_FACTOR_COOKIE)!.split('.');
    for (const cookie of [pending.get(TWO_FACTOR_COOKIE)!, `${deviceId}.${pendingSignature}`]) {
      const browser = new CookieJar();
      browser.cookies.set(TRUST_COOKIE, cookie);
      const res = await pendingSignIn(t, u.email, {}, browser);
      expect([cookie, res.res.json()]).toEqual([cookie, { twoFactorRedirect: true, twoFactorMethods: ['totp'] }]);
      expect(browser.get(TRUST_COOKIE)).toBeUndefined();
    }
  });

  it('a completed pending sign-in cannot be completed again (replayed cookie)', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const cookie = jar.get(TWO_FACTOR_COOKIE)!;
    expect((await post(t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar })).statusCode).toBe(
      200,
    );
    const replay = await post(
      t.app,
      '/two-factor/verify-backup-code',
      { code: u.backupCodes[1] },
      {
        headers: { cookie: `${TWO_FACTOR_COOKIE}=${cookie}` },
      },
    );
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'INVALID_TWO_FACTOR_COOKIE']);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 9', [u.userId])).toBe(1);
  });

  it("a pending sign-in past its expiry by the database's clock is refused; one still within it passes", async () => {
    const u = await enrolledUser(t);
    const app = onDbClock.app;
    const pendingOn = async () => {
      const jar = new CookieJar();
      const res = await post(app, '/sign-in/email', { email: u.email, password: PASSWORD }, { jar });
      expect(res.json().twoFactorRedirect).toBe(true);
      return jar;
    };
    const expiring = async (jar: CookieJar, interval: string) =>
      t.ctx.sql.query(
        `UPDATE two_factor_challenges SET expires_at = clock_timestamp() + interval '${interval}' WHERE id = $1`,
        [jar.get(TWO_FACTOR_COOKIE)!.split('.')[0]],
      );
    const late = await pendingOn();
    await expiring(late, '-1 second');
    const refused = await post(app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar: late });
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'INVALID_TWO_FACTOR_COOKIE']);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 10', [u.userId])).toBe(1);
    const inTime = await pendingOn();
    await expiring(inTime, '20 seconds');
    const passed = await post(app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar: inTime });
    expect(passed.statusCode).toBe(200);
  });
});

describe('API keys and mass assignment', () => {
  it('a key standing for the user is refused on enable, disable, get-totp-uri and generate-backup-codes; nothing changes', async () => {
    const u = await enrolledUser(t);
    const key = (await post(t.app, '/api-key/create', {}, { jar: u.jar })).json().key as string;
    const before = await factorState(u.userId);
    for (const path of [
      '/two-factor/enable',
      '/two-factor/disable',
      '/two-factor/get-totp-uri',
      '/two-factor/generate-backup-codes',
    ]) {
      const res = await post(t.app, path, { password: PASSWORD }, { origin: null, headers: { 'x-api-key': key } });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 403, 'API_KEY_SESSION_NOT_ALLOWED']);
    }
    expect(await factorState(u.userId)).toEqual(before);
  });

  it('extra fields are refused (FIELD_NOT_ALLOWED), never applied: no field sets another user or the flag', async () => {
    const u = await enrolledUser(t);
    const other = await signUp(t.app);
    const before = [await factorState(u.userId), await factorState(other.userId)];
    const cases: Array<[string, object]> = [
      ['/two-factor/enable', { password: PASSWORD, userId: other.userId }],
      ['/two-factor/disable', { password: PASSWORD, userId: other.userId }],
      ['/two-factor/get-totp-uri', { password: PASSWORD, userId: other.userId }],
      ['/two-factor/generate-backup-codes', { password: PASSWORD, count: 100 }],
      ['/two-factor/verify-totp', { code: '123456', userId: other.userId }],
      ['/two-factor/verify-backup-code', { code: 'aaaaa-bbbbb', rememberMe: true }],
      ['/update-user', { twoFactorEnabled: false }],
    ];
    for (const [path, body] of cases) {
      const res = await post(t.app, path, body, { jar: u.jar });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 400, 'FIELD_NOT_ALLOWED']);
    }
    const signUpWithFlag = await post(t.app, '/sign-up/email', {
      email: uniqueEmail('flag'),
      password: PASSWORD,
      name: 'Flag',
      twoFactorEnabled: true,
    });
    expect([signUpWithFlag.statusCode, signUpWithFlag.json().code]).toEqual([400, 'FIELD_NOT_ALLOWED']);
    expect([await factorState(u.userId), await factorState(other.userId)]).toEqual(before);
    // the password sign-in of the enrolled user still asks for the second factor
    expect((await signIn(t.app, u.email)).res.json().twoFactorRedirect).toBe(true);
  });
});

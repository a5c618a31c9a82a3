import { randomBytes } from 'node:crypto';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, PASSWORD, post, signUp, uniqueEmail } from '../../setup/fixtures';
import { codeAt, count, enrolledUser, pendingSignIn, sessionsOf, TWO_FACTOR_COOKIE } from './helpers';

/**
 * The attacks of docs/security.md aimed at the second factor: cross-site requests (origin check, login CSRF with a
 * pending cookie), enumeration, brute force of codes (per pending sign-in, per account, per address), and a pending
 * sign-in or a key standing in for the person.
 */
let t: TestApp;
let limited: TestApp; // per-address limits on, with the default two-factor rules
beforeAll(async () => {
  t = await startTestApp();
  limited = await startTestApp(
    {},
    {
      RATE_LIMIT_ENABLED: 'true',
      REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}tf-${randomBytes(4).toString('hex')}:`,
    },
  );
});
afterAll(async () => {
  await t?.close();
  await limited?.close();
});

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

  it('an API key standing for the user cannot enrol, remove or read the second factor', async () => {
    const u = await enrolledUser(t);
    const created = await post(t.app, '/api-key/create', {}, { jar: u.jar });
    const key = created.json().key as string;
    for (const path of ['/two-factor/disable', '/two-factor/get-totp-uri', '/two-factor/generate-backup-codes']) {
      const res = await post(t.app, path, { password: PASSWORD }, { origin: null, headers: { 'x-api-key': key } });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 403, 'API_KEY_SESSION_NOT_ALLOWED']);
    }
    expect(await count(t, 'users WHERE id = $1 AND two_factor_enabled', [u.userId])).toBe(1);
  });
});

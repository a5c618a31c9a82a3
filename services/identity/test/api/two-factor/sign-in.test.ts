import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, DATA_COOKIE, PASSWORD, post, sessionOf, signIn, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import {
  codeAt,
  count,
  enrolledUser,
  eventsOf,
  nextStep,
  pendingSignIn,
  sessionsOf,
  TRUST_COOKIE,
  TWO_FACTOR_COOKIE,
} from './helpers';

/** Sign-in with a second factor (docs/two-factor.md): the pending sign-in, its limits, trusted devices. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const wrongCode = async (secret: string) => {
  const right = [await codeAt(t, secret, -1), await codeAt(t, secret), await codeAt(t, secret, 1)];
  let code = 100000;
  while (right.includes(String(code))) code++;
  return String(code);
};

describe('password sign-in of a user with a second factor', () => {
  it("answers better-auth's two-factor redirect, no session, and a signed short-lived pending cookie", async () => {
    const u = await enrolledUser(t);
    const before = await sessionsOf(t, u.userId);
    const { res, jar } = await pendingSignIn(t, u.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(await sessionsOf(t, u.userId)).toBe(before);
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(jar.get(DATA_COOKIE)).toBeUndefined();
    const pending = jar.get(TWO_FACTOR_COOKIE)!;
    expect(pending).toMatch(/^[A-Za-z0-9]{32}\.[^.]{20,}$/); // value.signature
    expect(jar.attributes.get(TWO_FACTOR_COOKIE)).toMatchObject({ httponly: true, 'max-age': '300', samesite: 'Lax' });
  });

  it('a user without a second factor signs in as before, with no two-factor statement', async () => {
    const u = await signUp(t.app);
    const statements: string[] = [];
    const query = t.ctx.sql.query.bind(t.ctx.sql);
    t.ctx.sql.query = ((text: string, ...rest: unknown[]) => {
      statements.push(text);
      return (query as (...a: unknown[]) => Promise<unknown[]>)(text, ...rest);
    }) as typeof t.ctx.sql.query;
    try {
      const { res } = await signIn(t.app, u.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.twoFactorEnabled).toBe(false);
    } finally {
      t.ctx.sql.query = query;
    }
    // the flag comes with the user row the sign-in reads anyway; no statement touches the second factor's tables
    expect(statements.some((s) => s.includes('two_factor_enabled') && s.includes('FROM users'))).toBe(true);
    expect(statements.filter((s) => /two_factors|two_factor_challenges|two_factor_trusted_devices/.test(s))).toEqual(
      [],
    );
  });

  it('a wrong password answers as for everyone (no hint of a second factor)', async () => {
    const u = await enrolledUser(t);
    const res = await post(t.app, '/sign-in/email', { email: u.email, password: 'wrong password' });
    expect([res.statusCode, res.json().code]).toEqual([401, 'INVALID_EMAIL_OR_PASSWORD']);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('POST /two-factor/verify-totp with the pending cookie', () => {
  it('a right code makes the session (remember-me honoured), clears the pending cookie, audits', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email, { rememberMe: false });
    const pending = jar.get(TWO_FACTOR_COOKIE)!;
    const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json();
    expect(user).toMatchObject({ id: u.userId, twoFactorEnabled: true });
    expect(jar.get(TOKEN_COOKIE)!.startsWith(`${token}.`)).toBe(true);
    expect(jar.attributes.get(TOKEN_COOKIE)!['max-age']).toBeUndefined(); // rememberMe: false, a browser-session cookie
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
    expect((await sessionOf(t.app, { jar })).session.token).toBe(token);
    const signedIn = await eventsOf(t, u.userId, 'user.signed_in');
    expect(signedIn.at(-1)!.details).toMatchObject({ method: 'email', secondFactor: 'totp', trustDevice: false });
    // the pending sign-in is spent: the same cookie cannot make a second session
    nextStep(t);
    const again = await post(
      t.app,
      '/two-factor/verify-totp',
      { code: await codeAt(t, u.secret) },
      {
        headers: { cookie: `${TWO_FACTOR_COOKIE}=${pending}` },
      },
    );
    expect([again.statusCode, again.json().code]).toEqual([401, 'INVALID_TWO_FACTOR_COOKIE']);
  });

  it('remember-me on by default: the session cookie keeps its max age', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect(Number(jar.attributes.get(TOKEN_COOKIE)!['max-age'])).toBeGreaterThan(3600);
  });

  it('a code used once is refused at the next sign-in (replay), and counted', async () => {
    const u = await enrolledUser(t);
    const code = await codeAt(t, u.secret);
    const first = await pendingSignIn(t, u.email);
    expect((await post(t.app, '/two-factor/verify-totp', { code }, { jar: first.jar })).statusCode).toBe(200);
    const second = await pendingSignIn(t, u.email);
    const replay = await post(t.app, '/two-factor/verify-totp', { code }, { jar: second.jar });
    expect([replay.statusCode, replay.json()]).toEqual([401, { code: 'INVALID_CODE', message: 'Invalid code' }]);
    expect(second.jar.get(TWO_FACTOR_COOKIE)).toBeDefined(); // the pending sign-in goes on
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 1', [u.userId])).toBe(1);
  });

  it('two concurrent uses of one code: exactly one session', async () => {
    const u = await enrolledUser(t);
    const code = await codeAt(t, u.secret);
    const browsers = await Promise.all([1, 2, 3, 4].map(() => pendingSignIn(t, u.email)));
    const before = await sessionsOf(t, u.userId);
    const answers = await Promise.all(
      browsers.map(({ jar }) => post(t.app, '/two-factor/verify-totp', { code }, { jar })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401]);
    expect(await sessionsOf(t, u.userId)).toBe(before + 1);
  });

  it('wrong codes are counted per pending sign-in: the sixth attempt gives it up', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const wrong = await wrongCode(u.secret);
    for (let i = 0; i < 5; i++) {
      const res = await post(t.app, '/two-factor/verify-totp', { code: wrong }, { jar });
      expect([i, res.statusCode, res.json().code]).toEqual([i, 401, 'INVALID_CODE']);
    }
    const sixth = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([sixth.statusCode, sixth.json()]).toEqual([
      400,
      { code: 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE', message: 'Too many attempts. Please request a new code.' },
    ]);
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1', [u.userId])).toBe(0);
    const failures = await eventsOf(t, u.userId, 'user.sign_in_failed');
    expect(failures).toHaveLength(5);
    expect(failures[0]).toEqual({ actor_type: 'anonymous', details: { method: 'email', secondFactor: 'totp' } });
    // a new password sign-in opens a new pending sign-in, and the right code passes
    const again = await pendingSignIn(t, u.email);
    expect((await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, again)).statusCode).toBe(
      200,
    );
  });

  it('the pending sign-in expires after its lifetime', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    t.clock.advance(t.config.twoFactor.pendingSignInTtlSec + 1);
    const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([res.statusCode, res.json()]).toEqual([
      401,
      { code: 'INVALID_TWO_FACTOR_COOKIE', message: 'Invalid two factor cookie' },
    ]);
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
  });

  it('without a pending cookie, or with a forged one: INVALID_TWO_FACTOR_COOKIE, nothing counted', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const value = jar.get(TWO_FACTOR_COOKIE)!;
    const [id] = value.split('.');
    for (const cookie of [undefined, id, `${id}.forged`, `${'A'.repeat(32)}.${value.split('.')[1]}`]) {
      const headers: Record<string, string> = cookie ? { cookie: `${TWO_FACTOR_COOKIE}=${cookie}` } : {};
      const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { headers });
      expect([cookie, res.statusCode, res.json().code]).toEqual([cookie, 401, 'INVALID_TWO_FACTOR_COOKIE']);
    }
    expect(await count(t, 'two_factor_challenges WHERE user_id = $1 AND attempts = 0', [u.userId])).toBe(1);
  });
});

describe('account lockout', () => {
  it('ten wrong codes in a row lock the account (audited) until the lock lapses; a right code then passes', async () => {
    const u = await enrolledUser(t);
    const wrong = await wrongCode(u.secret);
    for (let i = 0; i < 10; i++) {
      const { jar } = await pendingSignIn(t, u.email);
      const res = await post(t.app, '/two-factor/verify-totp', { code: wrong }, { jar });
      expect([i, res.statusCode]).toEqual([i, 401]);
    }
    const locked = await eventsOf(t, u.userId, 'user.two_factor_locked');
    expect(locked).toHaveLength(1);
    expect(locked[0].details).toMatchObject({ failures: 10 });
    const { jar } = await pendingSignIn(t, u.email);
    const refused = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    const backup = await post(t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar });
    expect([backup.statusCode, backup.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    t.clock.advance(t.config.twoFactor.lockoutSec);
    const later = await pendingSignIn(t, u.email);
    const ok = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, later);
    expect(ok.statusCode).toBe(200);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 0', [u.userId])).toBe(1);
  });

  it('a right code resets the count of wrong ones', async () => {
    const u = await enrolledUser(t);
    const wrong = await wrongCode(u.secret);
    for (let round = 0; round < 3; round++) {
      const { jar } = await pendingSignIn(t, u.email);
      for (let i = 0; i < 4; i++) await post(t.app, '/two-factor/verify-totp', { code: wrong }, { jar });
      expect(
        (await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar })).statusCode,
      ).toBe(200);
      nextStep(t);
    }
    expect(await eventsOf(t, u.userId, 'user.two_factor_locked')).toHaveLength(0);
  });
});

describe('trusted devices', () => {
  it('trustDevice: the next password sign-in from that browser skips the second factor, renewed each time', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    const res = await post(
      t.app,
      '/two-factor/verify-totp',
      { code: await codeAt(t, u.secret), trustDevice: true },
      { jar },
    );
    expect(res.statusCode).toBe(200);
    const device = jar.get(TRUST_COOKIE)!;
    expect(device).toBeDefined();
    expect(jar.attributes.get(TRUST_COOKIE)).toMatchObject({ httponly: true, 'max-age': String(30 * 86400) });
    const browser = new CookieJar();
    browser.cookies.set(TRUST_COOKIE, device);
    t.clock.advance(20 * 86400);
    const again = await pendingSignIn(t, u.email, {}, browser);
    expect(again.res.statusCode).toBe(200);
    expect(again.res.json().token).toEqual(expect.any(String));
    expect(again.res.json().user.id).toBe(u.userId);
    expect(browser.get(TRUST_COOKIE)).toBe(device); // sent again with a renewed max age
    expect(browser.attributes.get(TRUST_COOKIE)!['max-age']).toBe(String(30 * 86400));
    // renewed: 20 more days later it still holds (40 days after it was first trusted)
    t.clock.advance(20 * 86400);
    const still = await pendingSignIn(t, u.email, {}, browser);
    expect(still.res.json().token).toEqual(expect.any(String));
    const event = await eventsOf(t, u.userId, 'user.signed_in');
    expect(event.at(-1)!.details).toMatchObject({ method: 'email+trusted-device' });
  });

  it("an expired trust, another user's device or a forged cookie asks for the second factor again", async () => {
    const u = await enrolledUser(t);
    const other = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret), trustDevice: true }, { jar });
    const device = jar.get(TRUST_COOKIE)!;
    const otherBrowser = new CookieJar();
    otherBrowser.cookies.set(TRUST_COOKIE, device);
    const foreign = await pendingSignIn(t, other.email, {}, otherBrowser);
    expect(foreign.res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(otherBrowser.get(TRUST_COOKIE)).toBeUndefined(); // an unusable device cookie is cleared
    const forged = new CookieJar();
    forged.cookies.set(TRUST_COOKIE, `${device.split('.')[0]}.bad`);
    expect((await pendingSignIn(t, u.email, {}, forged)).res.json().twoFactorRedirect).toBe(true);
    t.clock.advance(30 * 86400 + 1);
    const browser = new CookieJar();
    browser.cookies.set(TRUST_COOKIE, device);
    expect((await pendingSignIn(t, u.email, {}, browser)).res.json().twoFactorRedirect).toBe(true);
  });

  it('disabling the second factor forgets the trusted devices', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret), trustDevice: true }, { jar });
    expect(await count(t, 'two_factor_trusted_devices WHERE user_id = $1', [u.userId])).toBe(1);
    expect((await post(t.app, '/two-factor/disable', { password: PASSWORD }, { jar })).statusCode).toBe(200);
    expect(jar.get(TRUST_COOKIE)).toBeUndefined();
    expect(await count(t, 'two_factor_trusted_devices WHERE user_id = $1', [u.userId])).toBe(0);
    // and the password alone signs in again
    expect((await signIn(t.app, u.email)).res.json().token).toEqual(expect.any(String));
  });
});

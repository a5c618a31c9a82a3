import argon2 from 'argon2';
import { startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import {
  CookieJar,
  get,
  PASSWORD,
  post,
  sessionOf,
  signIn,
  signUp,
  TOKEN_COOKIE,
  uniqueEmail,
} from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sessionCount = async (userId: string) =>
  (await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [userId])).length;

describe('POST /sign-in/email', () => {
  it('signs in and answers redirect, token and user; a new token every time', async () => {
    const u = await signUp(t.app);
    const { res, jar, token } = await signIn(t.app, u.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ redirect: false, user: { id: u.userId, email: u.email } });
    expect(body.url).toBeUndefined();
    expect(token).not.toBe(u.token);
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'banExpires',
        'banReason',
        'banned',
        'createdAt',
        'email',
        'emailVerified',
        'id',
        'image',
        'language',
        'name',
        'passkeyCount',
        'role',
        'twoFactorEnabled',
        'updatedAt',
      ].sort(),
    );
    expect((await sessionOf(t.app, { jar })).session.token).toBe(token);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers redirect and url for a trusted callbackURL', async () => {
    const u = await signUp(t.app);
    for (const callbackURL of ['/welcome', `${TRUSTED_ORIGIN}/home`]) {
      const { res } = await signIn(t.app, u.email, PASSWORD, { callbackURL });
      expect(res.json()).toMatchObject({ redirect: true, url: callbackURL });
    }
  });

  it('answers wrong password, unknown email and no credential identically, after the same hash work', async () => {
    const u = await signUp(t.app);
    const before = await sessionCount(u.userId);
    const verify = jest.spyOn(t.ctx.hasher, 'verify');
    const wrong = await signIn(t.app, u.email, 'wrong password!');
    const unknown = await signIn(t.app, uniqueEmail('nobody'), PASSWORD);
    await t.ctx.sql.query("UPDATE accounts SET password = NULL WHERE user_id = $1 AND provider_id = 'credential'", [
      u.userId,
    ]);
    const noCredential = await signIn(t.app, u.email, PASSWORD);
    for (const { res } of [wrong, unknown, noCredential]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Every attempt ran one argon2 verification (a dummy hash when there is no stored one).
    expect(verify).toHaveBeenCalledTimes(3);
    expect(verify.mock.calls.map((c) => c[0] === null || c[0] === undefined)).toEqual([false, true, true]);
    verify.mockRestore();
    expect(await sessionCount(u.userId)).toBe(before);
  });

  it('refuses an invalid email with 400 INVALID_EMAIL', async () => {
    const res = await post(t.app, '/sign-in/email', { email: 'nope', password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' });
  });

  it('refuses an untrusted callbackURL with 403 before checking the password; no session created', async () => {
    const u = await signUp(t.app);
    const before = await sessionCount(u.userId);
    const { res } = await signIn(t.app, u.email, PASSWORD, { callbackURL: 'https://evil.example/steal' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' });
    expect(await sessionCount(u.userId)).toBe(before);
  });

  it('gives a browser-session cookie when rememberMe is false, and a shorter server-side lifetime', async () => {
    const u = await signUp(t.app);
    const { res, jar } = await signIn(t.app, u.email, PASSWORD, { rememberMe: false });
    expect(res.statusCode).toBe(200);
    expect(jar.attributes.get(TOKEN_COOKIE)?.['max-age']).toBeUndefined();
    const session = (await sessionOf(t.app, { jar })).session;
    const lifetime = (Date.parse(session.expiresAt) - Date.parse(session.createdAt)) / 1000;
    expect(lifetime).toBe(t.config.session.notRememberedExpiresInSec);
    const remembered = await signIn(t.app, u.email);
    expect(Number(remembered.jar.attributes.get(TOKEN_COOKIE)?.['max-age'])).toBe(t.config.session.expiresInSec);
  });

  it('keeps remember-me off through the Redis cache when the session is renewed', async () => {
    const app = await startTestApp({}, { SESSION_UPDATE_AGE_SEC: '60' });
    try {
      const u = await signUp(app.app);
      const { jar } = await signIn(app.app, u.email, PASSWORD, { rememberMe: false });
      const token = jar.get(TOKEN_COOKIE)!;
      const bare = new CookieJar();
      bare.cookies.set(TOKEN_COOKIE, token);
      expect((await sessionOf(app.app, { jar: bare })).session.id).toBeDefined(); // fills the Redis entry
      app.clock.advance(app.config.session.updateAgeSec + 1);
      const renewed = await get(app.app, '/get-session', { jar: bare });
      expect(renewed.json().session.updatedAt).toBe(new Date(app.clock.now()).toISOString());
      expect(bare.attributes.get(TOKEN_COOKIE)).toBeDefined();
      expect(bare.attributes.get(TOKEN_COOKIE)?.['max-age']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('rehashes the password after a successful sign-in when the argon2 parameters changed', async () => {
    const email = uniqueEmail();
    const weaker = await startTestApp({ argon2: { memoryKiB: 19456, timeCost: 2, parallelism: 1 } });
    let userId: string;
    try {
      userId = (await signUp(weaker.app, { email })).userId;
    } finally {
      await weaker.close();
    }
    const hashOf = async () =>
      (await t.ctx.sql.query<{ password: string }>('SELECT password FROM accounts WHERE user_id = $1', [userId]))[0]
        .password;
    expect(await hashOf()).toContain('m=19456,t=2,p=1');
    expect((await signIn(t.app, email, 'wrong password!')).res.statusCode).toBe(401);
    expect(await hashOf()).toContain('m=19456,t=2,p=1');
    expect((await signIn(t.app, email)).res.statusCode).toBe(200);
    const rehashed = await hashOf();
    expect(rehashed).toContain('m=47104,t=1,p=1');
    expect(await argon2.verify(rehashed, PASSWORD)).toBe(true);
  });
});

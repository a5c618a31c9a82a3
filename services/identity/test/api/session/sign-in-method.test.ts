import { CacheEntry } from '../../../src/features/session/cache-entry';
import { cacheKeyOf } from '../../../src/features/session/session-cache';
import {
  CookieJar,
  DATA_COOKIE,
  get,
  PASSWORD,
  post,
  type SignedUp,
  sessionOf,
  signIn,
  signUp,
  uniqueEmail,
} from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import type { LoopbackOidc } from '../../setup/oidc-provider';
import { adminPost, signUpAdmin } from '../admin/helpers';
import { mailedLink, verify } from '../magic-link/helpers';
import { authenticator, signInWithPasskey, userWithPasskey } from '../passkey/helpers';
import {
  CLIENT_ID,
  loopbackProviders,
  providerUser,
  type SocialTest,
  socialSignIn,
  startLoopbackProvider,
} from '../social/helpers';
import { codeAt, enrolledUser, nextStep, pendingSignIn, TRUST_COOKIE } from '../two-factor/helpers';

/**
 * How each session was made (docs/sessions.md "How a session was made"): every way of making one records its
 * sign-in method, and the second factor that completed it, on the session row; the session lists answer them, and
 * get-session does not.
 */
let t: MailStack;
let op: LoopbackOidc;
let social: SocialTest;
let admin: SignedUp;
beforeAll(async () => {
  op = await startLoopbackProvider();
  t = await startMailStack(
    {
      social: { providers: loopbackProviders(op) },
      emailVerification: { autoSignInAfterVerification: true },
    },
    { MAGIC_LINK_ENABLED: 'true', EMAIL_OTP_ENABLED: 'true' },
  );
  social = { t, op, close: async () => {} };
  admin = await signUpAdmin(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await op?.close();
});

interface Made {
  signInMethod: string | null;
  secondFactor: string | null;
}

/** How the session a browser holds was made, as an operator's list-user-sessions answers it. */
async function madeBy(jar: CookieJar): Promise<Made> {
  const current = await sessionOf(t.app, { jar }, '?disableCookieCache=true');
  expect(current).not.toBeNull();
  return madeByToken(current.user.id, current.session.token);
}

/** How the session with this token was made, as an operator's list-user-sessions answers it. */
async function madeByToken(userId: string, token: string): Promise<Made> {
  const res = await adminPost(t, 'list-user-sessions', { userId }, admin.jar);
  const listed = res.json().sessions.find((s: { token: string }) => s.token === token);
  expect(listed).toBeDefined();
  return { signInMethod: listed.signInMethod, secondFactor: listed.secondFactor };
}

const codesTo = (email: string) =>
  t.sink.messages.filter((m) => m.to.includes(email)).flatMap((m) => /\b(\d{6})\b/.exec(m.subject)?.[1] ?? []);

/** A sign-in code mailed to `email` (email-otp), read from the mail that arrives. */
async function mailedCode(email: string): Promise<string> {
  const before = codesTo(email).length;
  const res = await post(t.app, '/email-otp/send-verification-otp', { email, type: 'sign-in' });
  expect(res.statusCode).toBe(200);
  await t.sink.waitFor(() => codesTo(email).length > before, 10_000);
  return codesTo(email)[before];
}

describe('a session records how it was made, in list-user-sessions', () => {
  it('a password sign-in: email, no second factor; the sign-up that signs in at once: sign-up', async () => {
    const u = await signUp(t.app);
    expect(await madeByToken(u.userId, u.token)).toEqual({ signInMethod: 'sign-up', secondFactor: null });
    const { jar, res } = await signIn(t.app, u.email);
    expect(res.statusCode).toBe(200);
    expect(await madeBy(jar)).toEqual({ signInMethod: 'email', secondFactor: null });
  });

  it("a provider's sign-in through its redirect, and one with its id token: social:<provider>", async () => {
    providerUser(op, 'method-sam');
    const { res, jar } = await socialSignIn(social, 'method-sam');
    expect(res.statusCode).toBe(302);
    expect(await madeBy(jar)).toEqual({ signInMethod: 'social:loop', secondFactor: null });

    const token = await op.mintIdToken({
      sub: 'method-mo',
      aud: CLIENT_ID,
      email: 'method-mo@mobile.example',
      email_verified: true,
      name: 'Mo',
      nonce: 'n-1',
    });
    const mobile = new CookieJar();
    const answer = await post(
      t.app,
      '/sign-in/social',
      { provider: 'loop', idToken: { token, nonce: 'n-1' } },
      {
        jar: mobile,
      },
    );
    expect(answer.statusCode).toBe(200);
    expect(await madeBy(mobile)).toEqual({ signInMethod: 'social:loop', secondFactor: null });
  });

  it('a passkey: passkey (the passkey holds both factors)', async () => {
    const u = await userWithPasskey(t, {}, authenticator());
    const { res, jar } = await signInWithPasskey(t, u.device);
    expect(res.statusCode).toBe(200);
    expect(await madeBy(jar)).toEqual({ signInMethod: 'passkey', secondFactor: null });
  });

  it('a mailed link: magic-link; a mailed code: email-otp; a verification link that signs in: email-verification', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    expect((await verify(t, token, jar)).statusCode).toBe(200);
    expect(await madeBy(jar)).toEqual({ signInMethod: 'magic-link', secondFactor: null });

    const code = await mailedCode(u.email);
    const coded = new CookieJar();
    expect((await post(t.app, '/sign-in/email-otp', { email: u.email, otp: code }, { jar: coded })).statusCode).toBe(
      200,
    );
    expect(await madeBy(coded)).toEqual({ signInMethod: 'email-otp', secondFactor: null });

    const v = await signUp(t.app, { email: uniqueEmail('verify') });
    expect((await post(t.app, '/send-verification-email', { email: v.email }, { jar: v.jar })).statusCode).toBe(200);
    const link = t.linkIn(await t.mailTo(v.email, (m) => m.text.includes('/verify-email')));
    const browser = new CookieJar();
    const verified = await get(t.app, `${link.pathname.replace('/api/auth', '')}${link.search}`, { jar: browser });
    expect([200, 302]).toContain(verified.statusCode);
    expect(await madeBy(browser)).toEqual({ signInMethod: 'email-verification', secondFactor: null });
  });

  it('the second step keeps the first step’s method and names the factor: totp, backup-code, trusted-device', async () => {
    const u = await enrolledUser(t);
    const byApp = await pendingSignIn(t, u.email);
    const done = await post(
      t.app,
      '/two-factor/verify-totp',
      { code: await codeAt(t, u.secret), trustDevice: true },
      { jar: byApp.jar },
    );
    expect(done.statusCode).toBe(200);
    expect(await madeBy(byApp.jar)).toEqual({ signInMethod: 'email', secondFactor: 'totp' });

    // The device just trusted lets the next password sign-in through: the factor is the trusted device.
    const trusted = new CookieJar();
    trusted.cookies.set(TRUST_COOKIE, byApp.jar.get(TRUST_COOKIE)!);
    const passed = await pendingSignIn(t, u.email, {}, trusted);
    expect(passed.res.json().token).toEqual(expect.any(String));
    expect(await madeBy(trusted)).toEqual({ signInMethod: 'email', secondFactor: 'trusted-device' });

    const byBackup = await pendingSignIn(t, u.email);
    const backup = await post(
      t.app,
      '/two-factor/verify-backup-code',
      { code: u.backupCodes[0] },
      { jar: byBackup.jar },
    );
    expect(backup.statusCode).toBe(200);
    expect(await madeBy(byBackup.jar)).toEqual({ signInMethod: 'email', secondFactor: 'backup-code' });

    // A mailed link asks the second factor too; the session names the link.
    nextStep(t);
    const { jar, token } = await mailedLink(t, u.email);
    expect((await verify(t, token, jar)).json()).toMatchObject({ twoFactorRedirect: true });
    expect(
      (await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar })).statusCode,
    ).toBe(200);
    expect(await madeBy(jar)).toEqual({ signInMethod: 'magic-link', secondFactor: 'totp' });
  });

  it("an operator's impersonation: impersonation; a password change's new session: password-change", async () => {
    const operator = await signUpAdmin(t);
    const target = await signUp(t.app);
    const started = await adminPost(t, 'impersonate-user', { userId: target.userId }, operator.jar);
    expect(started.statusCode).toBe(200);
    expect(started.json().session).not.toHaveProperty('signInMethod'); // the SessionWithUser answer is unchanged
    expect(await madeByToken(target.userId, started.json().session.token)).toEqual({
      signInMethod: 'impersonation',
      secondFactor: null,
    });

    const changed = await post(
      t.app,
      '/change-password',
      { currentPassword: PASSWORD, newPassword: 'another horse battery staple', revokeOtherSessions: true },
      { jar: target.jar },
    );
    expect(changed.statusCode).toBe(200);
    expect(await madeByToken(target.userId, changed.json().token)).toEqual({
      signInMethod: 'password-change',
      secondFactor: null,
    });
  });

  it('a session made before the method was recorded answers null for both', async () => {
    const u = await signUp(t.app);
    await t.ctx.sql.query('UPDATE sessions SET sign_in_method = NULL, second_factor = NULL WHERE token = $1', [
      u.token,
    ]);
    expect(await madeByToken(u.userId, u.token)).toEqual({ signInMethod: null, secondFactor: null });
    const own = (await get(t.app, '/list-sessions', { jar: u.jar })).json();
    expect(own).toEqual([expect.objectContaining({ token: u.token, signInMethod: null, secondFactor: null })]);
  });

  it("the user's own list-sessions answers the same fields (an impersonation session stays hidden there)", async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    const operator = await signUpAdmin(t);
    expect((await adminPost(t, 'impersonate-user', { userId: u.userId }, operator.jar)).statusCode).toBe(200);
    const own = (await get(t.app, '/list-sessions', { jar })).json() as Made[];
    expect(own.map((s) => [s.signInMethod, s.secondFactor]).sort()).toEqual([
      ['email', 'totp'],
      ['sign-up', null],
    ]);
    const hidden = await adminPost(t, 'list-user-sessions', { userId: u.userId, hideTokens: true }, admin.jar);
    expect(
      hidden
        .json()
        .sessions.map((s: Made) => s.signInMethod)
        .sort(),
    ).toEqual(['email', 'impersonation', 'sign-up']);
  });
});

describe('get-session and its caches are unchanged', () => {
  const SESSION_KEYS = [
    'id',
    'token',
    'userId',
    'expiresAt',
    'createdAt',
    'updatedAt',
    'ipAddress',
    'userAgent',
    'impersonatedBy',
    'activeOrganizationId',
  ];
  const NAMED = /signInMethod|secondFactor|sign_in_method|second_factor/;

  it('the body from PostgreSQL, Redis and the cache cookie holds the same session fields as before, no method', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await signIn(t.app, u.email);
    const fresh = await get(t.app, '/get-session?disableCookieCache=true', { jar });
    expect(Object.keys(fresh.json().session)).toEqual(SESSION_KEYS);
    expect(fresh.body).not.toMatch(NAMED);
    // The Redis entry is `<the head a lookup checks>|<the body as it is sent>` (cache-entry.ts).
    const entry = await t.ctx.redis!.get(`${t.config.redisPrefix}${cacheKeyOf(token!)}`);
    expect(CacheEntry.read(entry!)?.json).toBe(fresh.body);
    expect((await get(t.app, '/get-session', { bearer: token })).body).toBe(fresh.body);
    // The session-cache cookie: `base64url("<exp>|<get-session body>").<HMAC>`.
    const data = jar.get(DATA_COOKIE)!;
    const signed = Buffer.from(data.slice(0, data.lastIndexOf('.')), 'base64url').toString();
    expect(signed.slice(signed.indexOf('|') + 1)).toBe(fresh.body);
    const fromCookie = await get(t.app, '/get-session', { jar });
    expect(fromCookie.body).toBe(fresh.body);
  });
});

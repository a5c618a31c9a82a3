import { CookieJar, PASSWORD, post, sessionOf, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codeAt, enrolledUser, pendingSignIn } from '../two-factor/helpers';
import * as h from './helpers';

/**
 * Sign-in, email verification and password reset by a mailed one-time code (docs/passwordless.md): better-auth's
 * email-otp routes over the real mail worker and an SMTP sink, a sign-in ending in the sign-in seam.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({}, h.ON);
}, 60_000);
afterAll(() => t?.close());

const mailedCode = (email: string, type = 'sign-in', headers: Record<string, string> = {}) =>
  h.mailedCode(t, email, type, headers);
const signInWith = (email: string, otp: string, jar = new CookieJar()) => h.signInWith(t, email, otp, jar);
const { wrong } = h;
const events = (type: string, userId: string) => h.events(t, type, userId);

describe('email code sign-in', () => {
  it('mails a six-digit code (stored hashed) that signs in once, with its audit event', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.ctx.sql.query<{ value: string }>(
      "SELECT value FROM verifications WHERE identifier LIKE 'email-otp:%'",
    );
    for (const row of rows) expect(row.value).not.toContain(code);
    const jar = new CookieJar();
    const res = await signInWith(u.email, code, jar);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), user: { id: u.userId, email: u.email } });
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    expect((await sessionOf(t.app, { jar })).user.id).toBe(u.userId);
    expect((await events('user.signed_in', u.userId)).at(-1)?.details).toMatchObject({ method: 'email-otp' });
    const again = await signInWith(u.email, code);
    expect([again.statusCode, again.json().code]).toEqual([400, 'INVALID_OTP']);
  });

  it('20 parallel sign-ins with the right code: exactly one session', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    const answers = await Promise.all(Array.from({ length: 20 }, () => signInWith(u.email, code)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await events('user.signed_in', u.userId)).toHaveLength(2); // sign-up's and this one
  });

  it('three wrong tries use a code up: the right one is then refused', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    for (let i = 0; i < 3; i++) expect((await signInWith(u.email, wrong(code))).json().code).toBe('INVALID_OTP');
    const late = await signInWith(u.email, code);
    expect([late.statusCode, late.json().code]).toEqual([403, 'TOO_MANY_ATTEMPTS']);
    // gone for good: refused until it expires, and a new one must be asked for
    expect((await signInWith(u.email, code)).json().code).toBe('TOO_MANY_ATTEMPTS');
    const failed = await t.ctx.sql.query(
      "SELECT 1 FROM audit_events WHERE type = 'user.sign_in_failed' AND details->>'method' = 'email-otp'",
    );
    expect(failed.length).toBeGreaterThanOrEqual(3);
  });

  it('parallel guesses at one code get three tries, no more', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => signInWith(u.email, g)));
    expect(answers.filter((r) => r.json().code === 'INVALID_OTP').length).toBeLessThanOrEqual(3);
    expect(answers.filter((r) => r.json().code === 'TOO_MANY_ATTEMPTS').length).toBeGreaterThanOrEqual(9);
    expect((await signInWith(u.email, code)).statusCode).not.toBe(200);
  });

  it('brute force across several codes for one address: the account lockout stops it, the right code too', async () => {
    expect(t.config.twoFactor.lockoutFailures).toBe(10);
    const u = await signUp(t.app);
    let checked = 0;
    // four codes (the mail cap allows five an hour to one address): twelve guesses, more than the budget's ten
    for (let round = 0; round < 4; round++) {
      const code = await mailedCode(u.email);
      const answers = await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          signInWith(u.email, String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')),
        ),
      );
      checked += answers.filter((r) => r.json().code === 'INVALID_OTP').length;
    }
    expect(checked).toBeLessThanOrEqual(10);
    const code = await mailedCode(u.email);
    const locked = await signInWith(u.email, code);
    expect([locked.statusCode, locked.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
  });

  it('the lockout is the second factor’s own for a user who has one: wrong mailed codes lock the TOTP step too', async () => {
    const u = await enrolledUser(t);
    for (let round = 0; round < 4; round++) {
      const code = await mailedCode(u.email);
      for (let i = 0; i < 3; i++) await signInWith(u.email, wrong(code));
    }
    const { jar } = await pendingSignIn(t, u.email);
    const step = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([step.statusCode, step.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
  });

  it('answers an unknown address exactly as a known one: the send, wrong codes and the exhausted code', async () => {
    const known = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    const trace = async (email: string) => {
      const out: unknown[] = [];
      const sent = await post(t.app, '/email-otp/send-verification-otp', { email, type: 'sign-in' });
      out.push([sent.statusCode, sent.body]);
      await t.ctx.background.drain(); // the code is stored after the answer
      for (let i = 0; i < 4; i++) {
        const r = await signInWith(email, '000000');
        out.push([r.statusCode, r.body]);
      }
      return out;
    };
    expect(await trace(unknown)).toEqual(await trace(known.email));
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.sink.messages.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it('an expired code is OTP_EXPIRED', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    t.clock.advance(301);
    const res = await signInWith(u.email, code);
    expect([res.statusCode, res.json().code]).toEqual([400, 'OTP_EXPIRED']);
  });

  it('asks the second factor of a user who has one, and the code opens one pending sign-in only', async () => {
    const u = await enrolledUser(t);
    const code = await mailedCode(u.email);
    const jar = new CookieJar();
    const res = await signInWith(u.email, code, jar);
    expect(res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect((await signInWith(u.email, code)).json().code).toBe('INVALID_OTP');
    const step = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect(step.statusCode).toBe(200);
    expect((await events('user.signed_in', u.userId)).at(-1)?.details).toMatchObject({ method: 'email-otp' });
  });

  it('refuses a banned user', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email);
    await t.ctx.sql.query("UPDATE users SET banned = true, ban_reason = 'spam' WHERE id = $1", [u.userId]);
    const res = await signInWith(u.email, code);
    expect([res.statusCode, res.json().code]).toEqual([403, 'BANNED_USER']);
  });

  it('mails in the language asked for, and refuses the change-email type here', async () => {
    const u = await signUp(t.app);
    await mailedCode(u.email, 'sign-in', { 'accept-language': 'fr' });
    expect(t.sink.messages.filter((m) => m.to.includes(u.email)).at(-1)?.subject).toMatch(/^Votre code/);
    const res = await post(t.app, '/email-otp/send-verification-otp', { email: u.email, type: 'change-email' });
    expect(res.statusCode).toBe(400);
  });
});

describe('email code verification', () => {
  it('verify-email with the mailed code verifies the address, once', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email, 'email-verification');
    const res = await post(t.app, '/email-otp/verify-email', { email: u.email, otp: code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, token: null, user: { id: u.userId, emailVerified: true } });
    expect((await post(t.app, '/email-otp/verify-email', { email: u.email, otp: code })).json().code).toBe(
      'INVALID_OTP',
    );
    // a sign-in code does not verify, nor the other way round
    const signInCode = await mailedCode(u.email);
    expect((await post(t.app, '/email-otp/verify-email', { email: u.email, otp: signInCode })).statusCode).toBe(400);
  });
});

describe('email code password reset', () => {
  it('forget-password mails a code; reset-password sets the new password with it, once', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(u.email, 'forget-password');
    const res = await post(t.app, '/email-otp/reset-password', {
      email: u.email,
      otp: code,
      password: 'a brand new one!',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await post(t.app, '/sign-in/email', { email: u.email, password: 'a brand new one!' })).statusCode).toBe(
      200,
    );
    const again = await post(t.app, '/email-otp/reset-password', {
      email: u.email,
      otp: code,
      password: 'x'.repeat(12),
    });
    expect(again.json().code).toBe('INVALID_OTP');
    const alias = await post(t.app, '/forget-password/email-otp', { email: u.email });
    expect([alias.statusCode, alias.json()]).toEqual([200, { success: true }]);
  });
});

import { CookieJar, DATA_COOKIE, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codeAt, enrolledUser, sessionsOf, TWO_FACTOR_COOKIE } from '../two-factor/helpers';
import { events, mailedCode, ON } from './helpers';

/**
 * `POST /email-otp/verify-email` when the service signs in after a verification
 * (AUTO_SIGN_IN_AFTER_VERIFICATION, the account feature's setting for its verification link): the answer carries
 * the session's token and the cookies are set, as better-auth does, through the sign-in seam (docs/passwordless.md).
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({}, { ...ON, AUTO_SIGN_IN_AFTER_VERIFICATION: 'true' });
}, 60_000);
afterAll(() => t?.close());

const verify = (email: string, otp: string, jar = new CookieJar()) =>
  post(t.app, '/email-otp/verify-email', { email, otp }, { jar });

describe('verify-email signs in (AUTO_SIGN_IN_AFTER_VERIFICATION=true)', () => {
  it('a signed-out browser: the session token in the answer, its cookies set, user.signed_in recorded', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email, 'email-verification');
    const jar = new CookieJar();
    const res = await verify(u.email, code, jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: true,
      token: expect.any(String),
      user: { id: u.userId, emailVerified: true },
    });
    expect(body.token).not.toBe(u.token);
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    const session = await sessionOf(t.app, { jar }, '?disableCookieCache=true');
    expect([session.user.id, session.user.emailVerified, session.session.token]).toEqual([u.userId, true, body.token]);
    expect((await events(t, 'user.signed_in', u.userId)).at(-1)?.details).toMatchObject({
      method: 'email-otp',
      type: 'email-verification',
      sessionId: session.session.id,
    });
    // the code was used by the verification
    expect((await verify(u.email, code)).json().code).toBe('INVALID_OTP');
  });

  it('a browser signed in as that user already: no second session, token null, its cache cookie says verified', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email, 'email-verification');
    const before = await sessionsOf(t, u.userId);
    const cacheBefore = u.jar.get(DATA_COOKIE);
    const res = await verify(u.email, code, u.jar);
    expect(res.json()).toMatchObject({ status: true, token: null, user: { emailVerified: true } });
    expect(await sessionsOf(t, u.userId)).toBe(before);
    expect(u.jar.get(DATA_COOKIE)).not.toBe(cacheBefore);
    expect((await sessionOf(t.app, { jar: u.jar })).user.emailVerified).toBe(true);
  });

  it('a user with a second factor: verified, then asked for it (better-auth’s two-factor answer), no session yet', async () => {
    const u = await enrolledUser(t);
    const code = await mailedCode(t, u.email, 'email-verification');
    const jar = new CookieJar();
    const res = await verify(u.email, code, jar);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: true,
      token: null,
      user: { id: u.userId, emailVerified: true },
      twoFactorRedirect: true,
      twoFactorMethods: ['totp'],
    });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeDefined();
    const step = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect(step.statusCode).toBe(200);
    expect((await events(t, 'user.signed_in', u.userId)).at(-1)?.details).toMatchObject({
      method: 'email-otp',
      secondFactor: 'totp',
    });
  });
});

describe('verify-email without the setting (the default)', () => {
  let off: MailStack;
  beforeAll(async () => {
    off = await startMailStack({}, ON);
  }, 60_000);
  afterAll(() => off?.close());

  it('answers token null and sets no session cookie', async () => {
    expect(off.config.emailVerification.autoSignInAfterVerification).toBe(false);
    const u = await signUp(off.app);
    const code = await mailedCode(off, u.email, 'email-verification');
    const jar = new CookieJar();
    const res = await post(off.app, '/email-otp/verify-email', { email: u.email, otp: code }, { jar });
    expect(res.json()).toMatchObject({ status: true, token: null, user: { emailVerified: true } });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
  });
});

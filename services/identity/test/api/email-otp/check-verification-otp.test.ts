import { post, signUp, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codeAt, enrolledUser, pendingSignIn } from '../two-factor/helpers';
import { checkCode, mailedCode, ON, signInWith, wrong } from './helpers';

/**
 * better-auth's `POST /email-otp/check-verification-otp` (docs/passwordless.md): whether a mailed code is right,
 * without using it. Each check is a try like any other: counted on the code and on the account's budget of wrong
 * codes before it is compared, so checking is no way around either limit.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({}, ON);
}, 60_000);
afterAll(() => t?.close());

describe('check-verification-otp', () => {
  it('answers a right code { success: true } and leaves it usable; the code then signs in once', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email);
    for (let i = 0; i < 5; i++) {
      const res = await checkCode(t, u.email, 'sign-in', code);
      expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    }
    expect((await signInWith(t, u.email, code)).statusCode).toBe(200);
    const used = await checkCode(t, u.email, 'sign-in', code);
    expect([used.statusCode, used.json().code]).toEqual([400, 'INVALID_OTP']);
  });

  it('a right check gives its try back: two wrong checks, a right one, then the code still verifies', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email, 'email-verification');
    for (let i = 1; i <= 2; i++)
      expect((await checkCode(t, u.email, 'email-verification', wrong(code, i))).json().code).toBe('INVALID_OTP');
    expect((await checkCode(t, u.email, 'email-verification', code)).statusCode).toBe(200);
    const verified = await post(t.app, '/email-otp/verify-email', { email: u.email, otp: code });
    expect([verified.statusCode, verified.json().user.emailVerified]).toEqual([200, true]);
  });

  it('wrong checks count on the code: past three the right code is refused, by the check and the sign-in', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email);
    for (let i = 1; i <= 3; i++) {
      const res = await checkCode(t, u.email, 'sign-in', wrong(code, i));
      expect([res.statusCode, res.json().code]).toEqual([400, 'INVALID_OTP']);
    }
    const late = await checkCode(t, u.email, 'sign-in', code);
    expect([late.statusCode, late.json().code]).toEqual([403, 'TOO_MANY_ATTEMPTS']);
    expect((await signInWith(t, u.email, code)).json().code).toBe('TOO_MANY_ATTEMPTS');
    const failed = await t.ctx.sql.query(
      "SELECT 1 FROM audit_events WHERE type = 'user.sign_in_failed' AND details->>'method' = 'email-otp' AND target_id = $1",
      [t.ctx.features.audit.events.emailTarget(u.email).id],
    );
    expect(failed).toHaveLength(3);
  });

  it('20 parallel wrong checks get three tries, no more, and the right code is then refused', async () => {
    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email, 'forget-password');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => checkCode(t, u.email, 'forget-password', wrong(code, i + 1))),
    );
    const codes = answers.map((r) => r.json().code);
    expect(codes.filter((c) => c === 'INVALID_OTP').length).toBeLessThanOrEqual(3);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS').length).toBeGreaterThanOrEqual(17);
    expect(answers.every((r) => r.statusCode !== 200)).toBe(true);
    const reset = await post(t.app, '/email-otp/reset-password', {
      email: u.email,
      otp: code,
      password: 'x'.repeat(12),
    });
    expect(reset.json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('wrong checks across new codes add up to the account lockout, which then refuses the sign-in too', async () => {
    expect(t.config.twoFactor.lockoutFailures).toBe(10);
    const u = await signUp(t.app);
    let checked = 0;
    // four codes (the mail cap allows five an hour to one address): twenty parallel guesses, the budget is ten
    for (let round = 0; round < 4; round++) {
      const code = await mailedCode(t, u.email);
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => checkCode(t, u.email, 'sign-in', wrong(code, i + 1))),
      );
      checked += answers.filter((r) => r.json().code === 'INVALID_OTP').length;
    }
    expect(checked).toBeLessThanOrEqual(10);
    const code = await mailedCode(t, u.email);
    const locked = await checkCode(t, u.email, 'sign-in', code);
    expect([locked.statusCode, locked.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    expect((await signInWith(t, u.email, code)).json().code).toBe('ACCOUNT_TEMPORARILY_LOCKED');
  });

  it('for a user with a second factor, wrong checks spend the second factor’s budget', async () => {
    const u = await enrolledUser(t);
    for (let round = 0; round < 4; round++) {
      const code = await mailedCode(t, u.email);
      for (let i = 1; i <= 3; i++) await checkCode(t, u.email, 'sign-in', wrong(code, i));
    }
    const { jar } = await pendingSignIn(t, u.email);
    const step = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect([step.statusCode, step.json().code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
  });

  it('answers an unknown address as a known one, a code of another kind INVALID_OTP, an expired one OTP_EXPIRED', async () => {
    const known = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    const trace = async (email: string) => {
      await post(t.app, '/email-otp/send-verification-otp', { email, type: 'email-verification' });
      await t.ctx.background.drain(); // the code is stored after the answer
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await checkCode(t, email, 'email-verification', '000000');
        out.push([r.statusCode, r.body]);
      }
      return out;
    };
    expect(await trace(unknown)).toEqual(await trace(known.email));

    const u = await signUp(t.app);
    const code = await mailedCode(t, u.email);
    expect((await checkCode(t, u.email, 'forget-password', code)).json().code).toBe('INVALID_OTP');
    expect((await checkCode(t, u.email, 'change-email', code)).json().code).toBe('INVALID_OTP');
    t.clock.advance(301);
    const expired = await checkCode(t, u.email, 'sign-in', code);
    expect([expired.statusCode, expired.json().code]).toEqual([400, 'OTP_EXPIRED']);
  });

  it('refuses a body better-auth would refuse', async () => {
    for (const body of [
      { email: 'a@example.com', otp: '123456' },
      { email: 'a@example.com', type: 'sign-in' },
      { email: 'not an address', type: 'sign-in', otp: '123456' },
      { email: 'a@example.com', type: 'magic', otp: '123456' },
    ])
      expect((await post(t.app, '/email-otp/check-verification-otp', body)).statusCode).toBe(400);
  });
});

describe('check-verification-otp when codes sign up', () => {
  let s: MailStack;
  beforeAll(async () => {
    s = await startMailStack({}, { ...ON, EMAIL_OTP_SIGN_UP: 'true' });
  }, 60_000);
  afterAll(() => s?.close());

  it('a right sign-in code for an address with no account yet: USER_NOT_FOUND (400), as better-auth answers', async () => {
    const email = uniqueEmail('newcomer');
    const code = await mailedCode(s, email);
    const res = await checkCode(s, email, 'sign-in', code);
    expect([res.statusCode, res.json().code]).toEqual([400, 'USER_NOT_FOUND']);
    // still usable: it registers the address
    expect((await signInWith(s, email, code)).statusCode).toBe(200);
  });
});

import { createAuthClient } from 'better-auth/client';
import { emailOTPClient } from 'better-auth/client/plugins';
import { listenOnLoopback } from '../setup/app';
import { browserFetch } from '../setup/browser-client';
import { signUp, uniqueEmail } from '../setup/fixtures';
import { type MailStack, startMailStack } from '../setup/mail-stack';

/**
 * The published better-auth client's `emailOTPClient()` over real HTTP against the email-otp routes
 * (docs/passwordless.md), with the real mail worker and an SMTP sink: what a product frontend does.
 */
let t: MailStack;
let baseURL: string;
beforeAll(async () => {
  t = await startMailStack({}, { EMAIL_OTP_ENABLED: 'true', EMAIL_OTP_CHANGE_EMAIL: 'true' });
  baseURL = await listenOnLoopback(t.app);
}, 60_000);
afterAll(() => t?.close());

const browser = () => {
  const { fetchOptions } = browserFetch();
  return createAuthClient({ baseURL, fetchOptions, plugins: [emailOTPClient()] });
};
const codeIn = async (email: string, count: number) => {
  await t.sink.waitFor(() => t.sink.messages.filter((m) => m.to.includes(email)).length >= count, 10_000);
  const mail = t.sink.messages.filter((m) => m.to.includes(email))[count - 1];
  return /\b(\d{6})\b/.exec(mail.subject)![1];
};

describe('emailOTPClient', () => {
  it('sendVerificationOtp → signIn.emailOtp → a session; a used code answers INVALID_OTP', async () => {
    const u = await signUp(t.app);
    const client = browser();
    const sent = await client.emailOtp.sendVerificationOtp({ email: u.email, type: 'sign-in' });
    expect([sent.error, sent.data]).toEqual([null, { success: true }]);
    const otp = await codeIn(u.email, 1);
    const signedIn = await client.signIn.emailOtp({ email: u.email, otp });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data).toMatchObject({ token: expect.any(String), user: { email: u.email } });
    expect((await client.getSession()).data?.user.id).toBe(u.userId);
    const again = await browser().signIn.emailOtp({ email: u.email, otp });
    expect(again.error).toMatchObject({ status: 400, code: 'INVALID_OTP' });
  });

  it('verifyEmail, and requestPasswordReset → resetPassword', async () => {
    const u = await signUp(t.app);
    const client = browser();
    await client.emailOtp.sendVerificationOtp({ email: u.email, type: 'email-verification' });
    const verified = await client.emailOtp.verifyEmail({ email: u.email, otp: await codeIn(u.email, 1) });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({ status: true, token: null, user: { emailVerified: true } });
    const asked = await client.emailOtp.requestPasswordReset({ email: u.email });
    expect([asked.error, asked.data]).toEqual([null, { success: true }]);
    const reset = await client.emailOtp.resetPassword({
      email: u.email,
      otp: await codeIn(u.email, 2),
      password: 'a password set by code',
    });
    expect([reset.error, reset.data]).toEqual([null, { success: true }]);
    const signIn = await browser().signIn.email({ email: u.email, password: 'a password set by code' });
    expect(signIn.error).toBeNull();
  });

  it('checkVerificationOtp answers without using the code up', async () => {
    const u = await signUp(t.app);
    const client = browser();
    await client.emailOtp.sendVerificationOtp({ email: u.email, type: 'sign-in' });
    const otp = await codeIn(u.email, 1);
    const wrong = await client.emailOtp.checkVerificationOtp({
      email: u.email,
      type: 'sign-in',
      otp: otp === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'INVALID_OTP' });
    const checked = await client.emailOtp.checkVerificationOtp({ email: u.email, type: 'sign-in', otp });
    expect([checked.error, checked.data]).toEqual([null, { success: true }]);
    expect((await client.signIn.emailOtp({ email: u.email, otp })).error).toBeNull();
  });

  it('requestEmailChange → the code at the new address → changeEmail: the session names the new address', async () => {
    const u = await signUp(t.app);
    const client = browser();
    expect((await client.signIn.email({ email: u.email, password: u.password })).error).toBeNull();
    const newEmail = uniqueEmail('client-moved');
    const asked = await client.emailOtp.requestEmailChange({ newEmail });
    expect([asked.error, asked.data]).toEqual([null, { success: true }]);
    const changed = await client.emailOtp.changeEmail({ newEmail, otp: await codeIn(newEmail, 1) });
    expect([changed.error, changed.data]).toEqual([null, { success: true }]);
    expect((await client.getSession()).data?.user).toMatchObject({ email: newEmail, emailVerified: true });
  });
});

import { startTestApp, type TestApp } from '../../setup/app';
import { post, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin } from './helpers';

/**
 * admin/send-reset-password and admin/send-verification-email: an operator sends a user the same mail the user
 * could ask for themselves (a reset link; a verification link), by user id. Mail goes through the outbox like every
 * account mail; here the outbox's write is captured.
 */
let t: TestApp;
const mails: Array<{ kind: string; to: string; url?: string }> = [];
beforeAll(async () => {
  t = await startTestApp({ emailVerification: { sendOnSignUp: false } });
  t.ctx.mailOutbox.write = async (_id, job) => {
    mails.push({ kind: job.kind, to: job.to, url: 'url' in job ? job.url : undefined });
  };
});
afterAll(() => t.close());

const sent = (to: string) => mails.filter((m) => m.to === to);

describe('admin/send-reset-password', () => {
  it('mails the user a reset link; the link works for the user', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app, { email: uniqueEmail('forgetful') });
    const res = await adminPost(t, 'send-reset-password', { userId: u.userId }, admin.jar);
    expect([res.statusCode, res.json()]).toEqual([200, { status: true }]);
    await t.ctx.background.drain();
    const [mail] = sent(u.email);
    expect(mail.kind).toBe('reset-password');
    expect(mail.url).toMatch(/\/reset-password\/[A-Za-z0-9]{24}\?callbackURL=/);
    const token = /reset-password\/([A-Za-z0-9]{24})/.exec(mail.url!)![1];
    const reset = await post(t.app, '/reset-password', { token, newPassword: 'a brand new long password' });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(t.app, u.email, 'a brand new long password')).token).toBeTruthy();
  });

  it('is refused without user:set-password, for an unknown user, and for an untrusted redirect; no mail', async () => {
    const admin = await signUpAdmin(t);
    const plain = await signUp(t.app, { email: uniqueEmail('plain') });
    const u = await signUp(t.app, { email: uniqueEmail('target') });
    expectError(
      await adminPost(t, 'send-reset-password', { userId: u.userId }, plain.jar),
      403,
      'NOT_ALLOWED_TO_SET_USERS_PASSWORD',
    );
    expectError(
      await adminPost(t, 'send-reset-password', { userId: '00000000-0000-4000-8000-000000000000' }, admin.jar),
      404,
      'USER_NOT_FOUND',
    );
    expectError(
      await adminPost(t, 'send-reset-password', { userId: u.userId, redirectTo: 'https://evil.example/x' }, admin.jar),
      403,
      'INVALID_REDIRECT_TO',
    );
    await t.ctx.background.drain();
    expect(sent(u.email)).toEqual([]);
  });
});

describe('admin/send-verification-email', () => {
  it('mails an unverified user a verification link', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app, { email: uniqueEmail('unverified') });
    const res = await adminPost(t, 'send-verification-email', { userId: u.userId }, admin.jar);
    expect([res.statusCode, res.json()]).toEqual([200, { status: true }]);
    await t.ctx.background.drain();
    const [mail] = sent(u.email);
    expect(mail.kind).toBe('verify-email');
    expect(mail.url).toContain('/verify-email?token=');
  });

  it('is refused for a verified user, without user:update, and for an unknown user; no mail', async () => {
    const admin = await signUpAdmin(t);
    const plain = await signUp(t.app, { email: uniqueEmail('plain') });
    const u = await signUp(t.app, { email: uniqueEmail('verified') });
    await t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [u.userId]);
    expectError(
      await adminPost(t, 'send-verification-email', { userId: u.userId }, admin.jar),
      400,
      'EMAIL_ALREADY_VERIFIED',
    );
    expectError(
      await adminPost(t, 'send-verification-email', { userId: u.userId }, plain.jar),
      403,
      'NOT_ALLOWED_TO_UPDATE_USERS',
    );
    expectError(
      await adminPost(t, 'send-verification-email', { userId: '00000000-0000-4000-8000-000000000000' }, admin.jar),
      404,
      'USER_NOT_FOUND',
    );
    await t.ctx.background.drain();
    expect(sent(u.email)).toEqual([]);
  });
});

import { listenOnLoopback } from '../setup/app';
import { browserClient } from '../setup/browser-client';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type MailStack, startMailStack } from '../setup/mail-stack';

/**
 * The password, email and deletion flows driven by the published better-auth client over real HTTP, with the
 * real mail worker process and an SMTP sink: what a product frontend does, link by link.
 */
let t: MailStack;
let baseURL: string;
const browser = () => browserClient(baseURL);

beforeAll(async () => {
  t = await startMailStack();
  baseURL = await listenOnLoopback(t.app);
}, 60_000);
afterAll(() => t?.close());

async function signedUp(tag: string) {
  const b = browser();
  const email = uniqueEmail(tag);
  const { error } = await b.client.signUp.email({ name: tag, email, password: PASSWORD });
  expect(error).toBeNull();
  return { ...b, email };
}

describe('account flows through the better-auth client', () => {
  it('requestPasswordReset → mailed link → resetPassword → sign-in with the new password', async () => {
    const a = await signedUp('reset');
    const asked = await browser().client.requestPasswordReset({ email: a.email, redirectTo: '/new-password' });
    expect(asked.error).toBeNull();
    expect(asked.data).toMatchObject({ status: true });
    const token = t
      .linkIn(await t.mailTo(a.email))
      .pathname.split('/')
      .pop()!;
    const reset = await browser().client.resetPassword({ newPassword: 'an entirely new secret', token });
    expect([reset.error, reset.data]).toEqual([null, { status: true }]);
    const old = await browser().client.signIn.email({ email: a.email, password: PASSWORD });
    expect(old.error?.code).toBe('INVALID_EMAIL_OR_PASSWORD');
    const fresh = await browser().client.signIn.email({ email: a.email, password: 'an entirely new secret' });
    expect(fresh.error).toBeNull();
    const again = await browser().client.resetPassword({ newPassword: 'yet another secret!', token });
    expect(again.error).toMatchObject({ status: 400, code: 'INVALID_TOKEN' });
  });

  it('changePassword with revokeOtherSessions answers a new token and ends the other browser', async () => {
    const a = await signedUp('change');
    const other = browser();
    await other.client.signIn.email({ email: a.email, password: PASSWORD });
    const { data, error } = await a.client.changePassword({
      currentPassword: PASSWORD,
      newPassword: 'changed passphrase!',
      revokeOtherSessions: true,
    });
    expect(error).toBeNull();
    expect(data?.token).toMatch(/^[A-Za-z0-9]+$/);
    expect(data?.user.email).toBe(a.email);
    expect((await other.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    expect((await a.client.getSession()).data?.session.token).toBe(data?.token);
    const wrong = await a.client.changePassword({ currentPassword: 'not it at all', newPassword: 'whatever123' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'INVALID_PASSWORD' });
  });

  it('sendVerificationEmail → mailed link → verifyEmail → emailVerified is true', async () => {
    const a = await signedUp('verify');
    const sent = await a.client.sendVerificationEmail({ email: a.email, callbackURL: '/welcome' });
    expect([sent.error, sent.data]).toEqual([null, { status: true }]);
    const link = t.linkIn(await t.mailTo(a.email));
    expect(link.pathname).toBe('/api/auth/verify-email');
    const token = link.searchParams.get('token')!;
    const verified = await a.client.verifyEmail({ query: { token } });
    expect(verified.error).toBeNull();
    const session = await a.client.getSession({ query: { disableCookieCache: true } });
    expect(session.data?.user.emailVerified).toBe(true);
  });

  it('changeEmail of an unverified user changes it at once and mails the new address', async () => {
    const a = await signedUp('move');
    const newEmail = uniqueEmail('moved');
    const { error } = await a.client.changeEmail({ newEmail, callbackURL: '/settings' });
    expect(error).toBeNull();
    expect((await a.client.getSession({ query: { disableCookieCache: true } })).data?.user.email).toBe(newEmail);
    expect(t.linkIn(await t.mailTo(newEmail)).pathname).toBe('/api/auth/verify-email');
    const same = await a.client.changeEmail({ newEmail });
    expect(same.error).toMatchObject({ status: 400, message: 'Email is the same' });
  });

  it('deleteUser with the password deletes the account; without one a confirmation mail is sent', async () => {
    const a = await signedUp('gone');
    const { data, error } = await a.client.deleteUser({ password: PASSWORD });
    expect(error).toBeNull();
    expect(data).toMatchObject({ success: true, message: 'User deleted' });
    expect((await a.client.getSession()).data).toBeNull();
    const login = await browser().client.signIn.email({ email: a.email, password: PASSWORD });
    expect(login.error?.status).toBe(401);

    const b = await signedUp('confirm');
    t.clock.advance(t.config.session.freshAgeSec + 1); // not fresh: the mail confirms instead
    try {
      const asked = await b.client.deleteUser({ callbackURL: '/bye' });
      expect(asked.data).toMatchObject({ success: true, message: 'Verification email sent' });
      const link = t.linkIn(await t.mailTo(b.email));
      expect(link.pathname).toBe('/api/auth/delete-user/callback');
      const confirmed = await b.client.deleteUser({ token: link.searchParams.get('token')! });
      expect(confirmed.data).toMatchObject({ success: true, message: 'User deleted' });
    } finally {
      t.clock.advance(-(t.config.session.freshAgeSec + 1));
    }
    const rows = await t.ctx.sql.query('SELECT 1 FROM users WHERE email = $1', [b.email]);
    expect(rows).toEqual([]);
  });
});

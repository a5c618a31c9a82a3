import { idFor } from '../../../src/mail/queue';
import { until } from '../../mail/helpers';
import { PUBLIC_URL, TRUSTED_ORIGIN } from '../../setup/app';
import { get, post, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const MESSAGE = 'If this email exists in our system, check your email for the reset link.';
const NEW_PASSWORD = 'a brand new passphrase';
const resetRows = async (userId: string) =>
  (
    await t.ctx.sql.query("SELECT 1 FROM verifications WHERE identifier LIKE 'reset-password:%' AND value = $1", [
      userId,
    ])
  ).length;

/** Requests a reset for `email` and returns the 24-character token from the mailed link. */
async function resetToken(email: string, redirectTo = '/reset'): Promise<string> {
  const res = await post(t.app, '/request-password-reset', { email, redirectTo });
  expect(res.statusCode).toBe(200);
  const link = t.linkIn(await t.mailTo(email));
  expect(link.searchParams.get('callbackURL')).toBe(redirectTo);
  const token = link.pathname.split('/').pop()!;
  expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
  t.sink.clear();
  return token;
}

describe('password reset (spec §4, §7)', () => {
  it('mails a link built from PUBLIC_URL, in the user language, even with a poisoned Host header', async () => {
    const u = await signUp(t.app, { language: 'GERMAN' });
    const res = await post(
      t.app,
      '/request-password-reset',
      { email: u.email, redirectTo: `${TRUSTED_ORIGIN}/reset` },
      { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
    );
    expect(res.json()).toEqual({ status: true, message: MESSAGE });
    const mail = await t.mailTo(u.email);
    const link = t.linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toMatch(
      new RegExp(`^${PUBLIC_URL}/api/auth/reset-password/[A-Za-z0-9]{24}$`),
    );
    expect(mail.text + mail.html).not.toContain('evil.example');
    expect(mail.subject).toMatch(/Passwort/i);
    expect(mail.from).toBe('no-reply@identity.test');
  });

  it('writes the mail to the outbox with its token; the row is done once the worker has sent it', async () => {
    const u = await signUp(t.app);
    const token = await resetToken(u.email);
    const row = () =>
      t.ctx.sql.query<{ dedupe_key: string; outcome: string | null }>(
        "SELECT dedupe_key, outcome FROM outbox WHERE topic = 'mail' AND payload->>'to' = $1",
        [u.email],
      );
    expect((await row()).map((r) => r.dedupe_key)).toEqual([idFor('reset-password', token)]);
    await until(async () => (await row())[0].outcome === 'sent', 10_000, 'the row to be done');
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const known = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    const a = await post(t.app, '/forget-password', { email: unknown });
    const b = await post(t.app, '/forget-password', { email: known.email });
    expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    await t.mailTo(known.email); // the known address's mail arrives…
    await new Promise((r) => setTimeout(r, 300));
    expect(t.sink.messages.filter((m) => m.to.includes(unknown))).toEqual([]); // …and none for the unknown
  });

  it('uses Accept-Language when the user stored no language', async () => {
    const u = await signUp(t.app);
    await post(
      t.app,
      '/request-password-reset',
      { email: u.email },
      { headers: { 'accept-language': 'fr-CA,en;q=0.5' } },
    );
    expect((await t.mailTo(u.email)).subject).toMatch(/mot de passe/i);
  });

  it('refuses an untrusted redirectTo with 403 before anything is created or sent', async () => {
    const u = await signUp(t.app);
    for (const redirectTo of ['https://evil.example/x', '//evil.example', '/\\evil.example']) {
      const res = await post(t.app, '/request-password-reset', { email: u.email, redirectTo });
      expect([res.statusCode, res.json().code]).toEqual([403, 'INVALID_REDIRECT_TO']);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await resetRows(u.userId)).toBe(0);
    expect(t.sink.messages.filter((m) => m.to.includes(u.email))).toEqual([]);
  });

  it('GET /reset-password/:token redirects with the token, or with error=INVALID_TOKEN', async () => {
    const u = await signUp(t.app);
    const token = await resetToken(u.email);
    const good = await get(t.app, `/reset-password/${token}?callbackURL=${encodeURIComponent('/reset?x=1')}`);
    expect([good.statusCode, good.headers.location]).toEqual([302, `/reset?x=1&token=${token}`]);
    const bad = await get(t.app, `/reset-password/${'A'.repeat(24)}?callbackURL=/reset`);
    expect(bad.headers.location).toBe('/reset?error=INVALID_TOKEN');
    const evil = await get(t.app, `/reset-password/${token}?callbackURL=${encodeURIComponent('https://evil.example')}`);
    expect([evil.statusCode, evil.json().code]).toEqual([403, 'INVALID_CALLBACK_URL']);
    expect((await get(t.app, `/reset-password/${token}`)).json().code).toBe('CALLBACK_URL_REQUIRED');
  });

  it('resets once: length checked first (token kept), then the new password works and the token is spent', async () => {
    const u = await signUp(t.app);
    const token = await resetToken(u.email);
    const short = await post(t.app, '/reset-password', { token, newPassword: 'short' });
    expect([short.statusCode, short.json().code]).toEqual([400, 'PASSWORD_TOO_SHORT']);
    const long = await post(t.app, '/reset-password', { token, newPassword: 'x'.repeat(129) });
    expect(long.json().code).toBe('PASSWORD_TOO_LONG');
    expect((await post(t.app, '/reset-password', { token, newPassword: NEW_PASSWORD })).json()).toEqual({
      status: true,
    });
    expect((await signIn(t.app, u.email, NEW_PASSWORD)).res.statusCode).toBe(200);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(401);
    const again = await post(t.app, '/reset-password', { token, newPassword: 'yet another passphrase' });
    expect([again.statusCode, again.json()]).toEqual([400, { code: 'INVALID_TOKEN', message: 'invalid token' }]);
    expect((await get(t.app, `/reset-password/${token}?callbackURL=/r`)).headers.location).toBe(
      '/r?error=INVALID_TOKEN',
    );
  });

  it('exactly one of several concurrent resets with the same token wins', async () => {
    const u = await signUp(t.app);
    const token = await resetToken(u.email);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(t.app, '/reset-password', { token, newPassword: `${NEW_PASSWORD} ${i}` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 400, 400, 400, 400, 400]);
    const winner = answers.findIndex((a) => a.statusCode === 200);
    expect((await signIn(t.app, u.email, `${NEW_PASSWORD} ${winner}`)).res.statusCode).toBe(200);
  });

  it('refuses an expired token and one of an unknown shape', async () => {
    const u = await signUp(t.app);
    const token = await resetToken(u.email);
    t.clock.advance(t.config.emailAndPassword.resetPasswordTokenExpiresInSec + 1);
    try {
      const late = await post(t.app, '/reset-password', { token, newPassword: NEW_PASSWORD });
      expect([late.statusCode, late.json().code]).toEqual([400, 'INVALID_TOKEN']); // 401 is the id-token refusal's
    } finally {
      t.clock.advance(-(t.config.emailAndPassword.resetPasswordTokenExpiresInSec + 1));
    }
    for (const bad of ['', "' OR 1=1 --", 'x'.repeat(64)])
      expect((await post(t.app, '/reset-password', { token: bad, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });
});

import { SignJWT } from 'jose';
import { deriveKey } from '../../../src/crypto/keys';
import { TEST_SECRET } from '../../setup/app';
import { get, post, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const verifiedOf = async (userId: string) =>
  (await t.ctx.sql.query<{ email_verified: boolean }>('SELECT email_verified FROM users WHERE id = $1', [userId]))[0]
    .email_verified;

/** Asks for a verification mail for the signed-in user and returns the mailed link's token. */
async function verificationToken(u: Awaited<ReturnType<typeof signUp>>, callbackURL = '/welcome'): Promise<string> {
  const res = await post(t.app, '/send-verification-email', { email: u.email, callbackURL }, { jar: u.jar });
  expect(res.json()).toEqual({ status: true });
  const link = t.linkIn(await t.mailTo(u.email));
  expect(link.pathname).toBe('/api/auth/verify-email');
  expect(link.searchParams.get('callbackURL')).toBe(callbackURL);
  t.sink.clear();
  return link.searchParams.get('token')!;
}

describe('email verification (spec §4, §5)', () => {
  it('verifies with the mailed link once, then redirects with error=invalid_token', async () => {
    const u = await signUp(t.app, { language: 'SPA' });
    const res = await post(t.app, '/send-verification-email', { email: u.email }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    const mail = await t.mailTo(u.email);
    expect(mail.subject).toMatch(/correo|verifica/i);
    t.sink.clear();
    const token = await verificationToken(u);
    const first = await get(t.app, `/verify-email?token=${token}&callbackURL=/welcome`);
    expect([first.statusCode, first.headers.location]).toEqual([302, '/welcome']);
    expect(await verifiedOf(u.userId)).toBe(true);
    const again = await get(t.app, `/verify-email?token=${token}&callbackURL=/welcome`);
    expect(again.headers.location).toBe('/welcome?error=invalid_token');
    const json = await get(t.app, `/verify-email?token=${token}`);
    expect([json.statusCode, json.json().code]).toEqual([400, 'INVALID_TOKEN']);
  });

  it('every verification link carries token and callbackURL, "/" when the request gave none (spec §2)', async () => {
    const u = await signUp(t.app);
    await post(t.app, '/send-verification-email', { email: u.email }, { jar: u.jar });
    const signedIn = t.linkIn(await t.mailTo(u.email));
    t.sink.clear();
    await post(t.app, '/send-verification-email', { email: u.email });
    const anonymous = t.linkIn(await t.mailTo(u.email));
    t.sink.clear();
    for (const link of [signedIn, anonymous]) {
      expect(link.pathname).toBe('/api/auth/verify-email');
      expect([...link.searchParams.keys()].sort()).toEqual(['callbackURL', 'token']);
      expect(link.searchParams.get('callbackURL')).toBe('/');
    }
  });

  it('only to the signed-in user own, unverified email', async () => {
    const u = await signUp(t.app);
    const other = await post(t.app, '/send-verification-email', { email: uniqueEmail() }, { jar: u.jar });
    expect([other.statusCode, other.json().code]).toEqual([400, 'EMAIL_MISMATCH']);
    const token = await verificationToken(u);
    await get(t.app, `/verify-email?token=${token}`);
    const done = await post(t.app, '/send-verification-email', { email: u.email }, { jar: u.jar });
    expect(done.json().code).toBe('EMAIL_ALREADY_VERIFIED');
  });

  it('without a session answers the same for unknown and known addresses', async () => {
    const u = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    const a = await post(t.app, '/send-verification-email', { email: unknown });
    const b = await post(t.app, '/send-verification-email', { email: u.email });
    expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    await t.mailTo(u.email);
    expect(t.sink.messages.filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  it('redirects token_expired, invalid_token (edited, alg none, other key) and user_not_found', async () => {
    const u = await signUp(t.app);
    const token = await verificationToken(u);
    t.clock.advance(t.config.emailVerification.expiresInSec + 1);
    try {
      expect((await get(t.app, `/verify-email?token=${token}&callbackURL=/v`)).headers.location).toBe(
        '/v?error=token_expired',
      );
    } finally {
      t.clock.advance(-(t.config.emailVerification.expiresInSec + 1));
    }
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const edited = `${h}.${Buffer.from(JSON.stringify({ ...claims, email: 'admin@example.com' })).toString('base64url')}.${s}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    const foreignKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    for (const bad of [edited, none, foreignKey, 'garbage'])
      expect((await get(t.app, `/verify-email?token=${encodeURIComponent(bad)}&callbackURL=/v`)).headers.location).toBe(
        '/v?error=invalid_token',
      );
    const ghost = await new SignJWT({ email: uniqueEmail('ghost') })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(t.clock.now() / 1000))
      .setExpirationTime(Math.floor(t.clock.now() / 1000) + 600)
      .setJti('ghost-token-id')
      .sign(deriveKey(TEST_SECRET, 'verification-jwt'));
    expect((await get(t.app, `/verify-email?token=${ghost}&callbackURL=/v`)).headers.location).toBe(
      '/v?error=user_not_found',
    );
    expect(await verifiedOf(u.userId)).toBe(false);
  });

  it('refuses an untrusted callbackURL with 403 and sends nothing', async () => {
    const u = await signUp(t.app);
    const res = await post(
      t.app,
      '/send-verification-email',
      { email: u.email, callbackURL: 'https://evil.example' },
      { jar: u.jar },
    );
    expect([res.statusCode, res.json().code]).toEqual([403, 'INVALID_CALLBACK_URL']);
    const link = await get(t.app, '/verify-email?token=x&callbackURL=//evil.example');
    expect(link.statusCode).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.sink.messages.filter((m) => m.to.includes(u.email))).toEqual([]);
  });

  it('exactly one of several concurrent uses of a link wins', async () => {
    const u = await signUp(t.app);
    const token = await verificationToken(u);
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(t.app, `/verify-email?token=${token}`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
  });
});

describe('send-on-sign-up and require-verification options', () => {
  it('mails at sign-up, refuses sign-in until verified (after the password check), then signs in', async () => {
    const strict = await startMailStack(
      {},
      { REQUIRE_EMAIL_VERIFICATION: 'true', SEND_VERIFICATION_ON_SIGN_UP: 'true' },
    );
    try {
      const email = uniqueEmail();
      const res = await post(strict.app, '/sign-up/email', { name: 'V', email, password: 'a long passphrase' });
      expect(res.json().token).toBeNull();
      const atSignUp = strict.linkIn(await strict.mailTo(email));
      expect([atSignUp.searchParams.get('callbackURL'), atSignUp.searchParams.has('token')]).toEqual(['/', true]);
      strict.sink.clear();
      const wrong = await signIn(strict.app, email, 'not the password');
      expect(wrong.res.statusCode).toBe(401);
      const refused = await signIn(strict.app, email, 'a long passphrase');
      expect([refused.res.statusCode, refused.res.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
      const atSignIn = strict.linkIn(await strict.mailTo(email));
      expect(atSignIn.searchParams.get('callbackURL')).toBe('/');
      const token = atSignIn.searchParams.get('token')!;
      expect((await get(strict.app, `/verify-email?token=${token}`)).statusCode).toBe(200);
      expect((await signIn(strict.app, email, 'a long passphrase')).res.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  }, 60_000);
});

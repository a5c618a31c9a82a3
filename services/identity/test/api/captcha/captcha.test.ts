import { loadConfig } from '../../../src/config';
import { SITE_VERIFY_URLS } from '../../../src/features/captcha/providers';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';
import { VerifierServer } from './verifier-server';

/**
 * Bot checks for the three provider kinds against a local verifier server that answers success,
 * failure and errors. A refused request changes nothing (no user, no session, no reset token).
 */
const SECRET = 'provider-secret-key';
const SITE_KEY = 'site-key-123';
const CLIENT_IP = '203.0.113.7';

const kinds = ['cloudflare-turnstile', 'google-recaptcha', 'hcaptcha'] as const;

describe.each(kinds)('%s', (kind) => {
  let verifier: VerifierServer;
  let t: TestApp;
  beforeAll(async () => {
    verifier = await new VerifierServer().start();
    t = await startTestApp(
      {},
      {
        CAPTCHA_PROVIDER: kind,
        CAPTCHA_SECRET_KEY: SECRET,
        CAPTCHA_SITE_KEY: SITE_KEY,
        CAPTCHA_SITE_VERIFY_URL: verifier.url,
        CAPTCHA_TIMEOUT_MS: '2000', // generous: a loaded CI machine must not turn a pass into a timeout
      },
    );
  });
  afterAll(async () => {
    await t.close();
    await verifier.stop();
  });
  beforeEach(() => {
    verifier.mode = 'success';
    verifier.requests.length = 0;
  });

  const call = (url: string, body: object, captcha?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth${url}`,
      remoteAddress: CLIENT_IP,
      headers: { origin: PUBLIC_URL, ...(captcha === undefined ? {} : { 'x-captcha-response': captcha }) },
      payload: body,
    });
  const signUpBody = (email: string) => ({ name: 'Bot?', email, password: PASSWORD });
  const usersWith = async (email: string) =>
    (await t.ctx.sql.query('SELECT id FROM users WHERE email = $1', [email])).length;
  const resetTokensOf = async (email: string) =>
    (
      await t.ctx.sql.query(
        "SELECT v.id FROM verifications v JOIN users u ON v.value = u.id::text WHERE u.email = $1 AND v.identifier LIKE 'reset-password:%'",
        [email],
      )
    ).length;

  it('passes a verified token and forwards secret, response and remote IP as the provider expects', async () => {
    const email = uniqueEmail('human');
    const res = await call('/sign-up/email', signUpBody(email), 'token-ok');
    expect(res.statusCode).toBe(200);
    expect(await usersWith(email)).toBe(1);
    expect(verifier.requests).toHaveLength(1);
    const [request] = verifier.requests;
    const expected: Record<string, string> = { secret: SECRET, response: 'token-ok', remoteip: CLIENT_IP };
    if (kind === 'hcaptcha') expected.sitekey = SITE_KEY; // only hCaptcha takes the site key
    expect(request.fields).toEqual(expected);
    expect(request.contentType).toBe(
      kind === 'cloudflare-turnstile' ? 'application/json' : 'application/x-www-form-urlencoded',
    );
  });

  it('refuses a missing token with 400 before asking the provider, and creates nothing', async () => {
    const email = uniqueEmail('bot');
    for (const captcha of [undefined, '']) {
      const res = await call('/sign-up/email', signUpBody(email), captcha);
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { code: 'MISSING_CAPTCHA_RESPONSE', message: 'Missing CAPTCHA response' },
      ]);
    }
    expect(verifier.requests).toHaveLength(0);
    expect(await usersWith(email)).toBe(0);
  });

  it('refuses a token the provider rejects with 403, and creates nothing', async () => {
    verifier.mode = 'failure';
    const email = uniqueEmail('bot');
    const res = await call('/sign-up/email', signUpBody(email), 'token-bad');
    expect([res.statusCode, res.json()]).toEqual([
      403,
      { code: 'CAPTCHA_VERIFICATION_FAILED', message: 'Captcha verification failed' },
    ]);
    expect(await usersWith(email)).toBe(0);
  });

  it('fails closed (503) when the provider answers 500, garbage or nothing in time', async () => {
    const email = uniqueEmail('bot');
    for (const mode of ['error', 'not-json', 'hang'] as const) {
      verifier.mode = mode;
      const res = await call('/sign-up/email', signUpBody(email), 'token');
      expect([mode, res.statusCode, res.json()]).toEqual([
        mode,
        503,
        { code: 'CAPTCHA_UNAVAILABLE', message: 'Something went wrong' },
      ]);
    }
    expect(await usersWith(email)).toBe(0);
  });

  it('guards sign-in and both password-reset paths: no session, no reset token, no mail when refused', async () => {
    const email = uniqueEmail('known');
    expect((await call('/sign-up/email', signUpBody(email), 'ok')).statusCode).toBe(200);
    verifier.mode = 'failure';
    const signIn = await call('/sign-in/email', { email, password: PASSWORD }, 'bad');
    expect([signIn.statusCode, signIn.headers['set-cookie']]).toEqual([403, undefined]);
    for (const path of ['/request-password-reset', '/forget-password', '//request-password-reset/'])
      expect([path, (await call(path, { email }, 'bad')).statusCode]).toEqual([path, 403]);
    await t.ctx.background.drain();
    expect(await resetTokensOf(email)).toBe(0);
    verifier.mode = 'success';
    expect((await call('/sign-in/email', { email, password: PASSWORD }, 'ok')).statusCode).toBe(200);
    expect((await call('/request-password-reset', { email }, 'ok')).statusCode).toBe(200);
    await t.ctx.background.drain();
    expect(await resetTokensOf(email)).toBe(1); // the count above would have seen a token
  });

  it('leaves the other routes alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(res.statusCode).toBe(200);
    expect(verifier.requests).toHaveLength(0);
  });

  if (kind === 'google-recaptcha')
    it('reCAPTCHA v3: a score below captcha.minScore (0.5) fails, at or above passes', async () => {
      verifier.mode = { score: 0.3 };
      expect((await call('/sign-up/email', signUpBody(uniqueEmail('low')), 'v3')).statusCode).toBe(403);
      verifier.mode = { score: 0.5 };
      expect((await call('/sign-up/email', signUpBody(uniqueEmail('high')), 'v3')).statusCode).toBe(200);
    });
});

describe('configuration', () => {
  it('fails open only when configured, and still refuses a rejected token', async () => {
    const verifier = await new VerifierServer().start();
    const t = await startTestApp(
      {},
      {
        CAPTCHA_PROVIDER: 'hcaptcha',
        CAPTCHA_SECRET_KEY: SECRET,
        CAPTCHA_SITE_VERIFY_URL: verifier.url,
        CAPTCHA_FAIL_OPEN: 'true',
      },
    );
    try {
      const body = () => ({ name: 'X', email: uniqueEmail('open'), password: PASSWORD });
      const send = (captcha: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          headers: { origin: PUBLIC_URL, 'x-captcha-response': captcha },
          payload: body(),
        });
      verifier.mode = 'error';
      expect((await send('t')).statusCode).toBe(200);
      verifier.mode = 'failure';
      expect((await send('t')).statusCode).toBe(403);
    } finally {
      await t.close();
      await verifier.stop();
    }
  });

  it('uses the real verify URLs by default and needs a secret key with a provider', () => {
    expect(SITE_VERIFY_URLS).toEqual({
      'cloudflare-turnstile': 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      'google-recaptcha': 'https://www.google.com/recaptcha/api/siteverify',
      hcaptcha: 'https://api.hcaptcha.com/siteverify',
    });
    expect(() => loadConfig({ NODE_ENV: 'test', CAPTCHA_PROVIDER: 'hcaptcha' })).toThrow(/CAPTCHA_SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'test', CAPTCHA_PROVIDER: 'other', CAPTCHA_SECRET_KEY: 's' })).toThrow(
      /captcha\.provider/,
    );
    // Unset: the routes that declare the check guard themselves (test/api/security/route-policies.test.ts).
    expect(loadConfig({ NODE_ENV: 'test' }).captcha.endpoints).toBeUndefined();
  });

  it("captcha.endpoints replaces the routes' own: a listed path is checked, a declared one left out is not", async () => {
    const verifier = await new VerifierServer().start();
    const t = await startTestApp(
      { captcha: { endpoints: ['/sign-up/email', '/send-verification-email'] } },
      { CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SECRET_KEY: SECRET, CAPTCHA_SITE_VERIFY_URL: verifier.url },
    );
    try {
      const send = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url: `/api/auth${url}`, headers: { origin: PUBLIC_URL }, payload });
      const email = uniqueEmail('listed');
      const signUp = await send('/sign-up/email', { name: 'X', email, password: PASSWORD });
      expect([signUp.statusCode, signUp.json().code]).toEqual([400, 'MISSING_CAPTCHA_RESPONSE']);
      const verification = await send('/send-verification-email', { email });
      expect([verification.statusCode, verification.json().code]).toEqual([400, 'MISSING_CAPTCHA_RESPONSE']);
      // Declared by the route, left out of the operator's list: no token asked for.
      expect((await send('/sign-in/email', { email, password: PASSWORD })).json().code).toBe(
        'INVALID_EMAIL_OR_PASSWORD',
      );
      expect((await send('/request-password-reset', { email })).statusCode).toBe(200);
      expect(verifier.requests).toHaveLength(0);
    } finally {
      await t.close();
      await verifier.stop();
    }
  });
});

import { createAuthClient } from 'better-auth/client';
import { twoFactorClient } from 'better-auth/client/plugins';
import { listenOnLoopback, startTestApp, type TestApp } from '../../setup/app';
import { browserFetch } from '../../setup/browser-client';
import { PASSWORD, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import { codeAt, nextStep, secretOf, TRUST_COOKIE, TWO_FACTOR_COOKIE } from './helpers';

/**
 * The whole second factor driven by the published better-auth client with its `twoFactorClient` plugin, over real
 * HTTP, as a product frontend would: enrol, sign out, sign in (redirected to the second factor), verify, trust the
 * device, backup codes, disable.
 */
let t: TestApp;
let baseURL: string;
beforeAll(async () => {
  t = await startTestApp();
  baseURL = await listenOnLoopback(t.app);
});
afterAll(() => t?.close());

function browser() {
  const { jar, sent, fetchOptions } = browserFetch();
  const redirects: Array<{ twoFactorMethods?: string[] }> = [];
  const client = createAuthClient({
    baseURL,
    fetchOptions,
    plugins: [twoFactorClient({ onTwoFactorRedirect: async (context) => void redirects.push(context) })],
  });
  return { client, jar, sent, redirects };
}

describe('better-auth client with twoFactorClient', () => {
  const email = uniqueEmail('two-factor');
  const a = () => first;
  let first: ReturnType<typeof browser>;
  let secret: string;
  let backupCodes: string[];

  beforeAll(() => {
    first = browser();
  });

  it('signs up, enables TOTP (URI and backup codes) and confirms it with a first code', async () => {
    const { error } = await a().client.signUp.email({ name: 'Two Factor', email, password: PASSWORD });
    expect(error).toBeNull();
    const enabled = await a().client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.error).toBeNull();
    const data = enabled.data as { method: 'totp'; totpURI: string; backupCodes: string[] };
    expect(data.method).toBe('totp');
    expect(data.totpURI).toMatch(/^otpauth:\/\/totp\//);
    backupCodes = data.backupCodes;
    expect(backupCodes).toHaveLength(10);
    secret = secretOf(data.totpURI);
    const verified = await a().client.twoFactor.verifyTotp({ code: await codeAt(t, secret) });
    expect(verified.error).toBeNull();
    expect(verified.data!.user.twoFactorEnabled).toBe(true);
    const session = await a().client.getSession({ query: { disableCookieCache: true } });
    expect(session.data!.user.twoFactorEnabled).toBe(true);
    const uri = await a().client.twoFactor.getTotpUri({ password: PASSWORD });
    expect(secretOf(uri.data!.totpURI)).toBe(secret);
    nextStep(t);
  });

  it('signIn.email is redirected to the second factor; verifyTotp signs in, trusting the device', async () => {
    const b = browser();
    const signedIn = await b.client.signIn.email({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(b.redirects).toEqual([{ twoFactorMethods: ['totp'] }]);
    expect(b.jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(b.jar.get(TWO_FACTOR_COOKIE)).toBeDefined();
    expect((await b.client.getSession()).data).toBeNull();
    const wrong = await b.client.twoFactor.verifyTotp({
      code: '000000' === (await codeAt(t, secret)) ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 401, code: 'INVALID_CODE' });
    const verified = await b.client.twoFactor.verifyTotp({ code: await codeAt(t, secret), trustDevice: true });
    expect(verified.error).toBeNull();
    expect(verified.data!.user.email).toBe(email.toLowerCase());
    const session = await b.client.getSession();
    expect(session.data!.session.token).toBe(verified.data!.token);
    expect(b.jar.get(TRUST_COOKIE)).toBeDefined();
    nextStep(t);
    // signed out, the trusted browser signs in with the password alone
    await b.client.signOut();
    expect((await b.client.getSession()).data).toBeNull();
    const trusted = await b.client.signIn.email({ email, password: PASSWORD });
    expect(trusted.data).toMatchObject({ redirect: false, user: { email: email.toLowerCase() } });
    expect(b.redirects).toHaveLength(1);
  });

  it('another browser signs in with a backup code; the code is spent', async () => {
    const c = browser();
    await c.client.signIn.email({ email, password: PASSWORD });
    const used = await c.client.twoFactor.verifyBackupCode({ code: backupCodes[0] });
    expect(used.error).toBeNull();
    expect((await c.client.getSession()).data!.user.email).toBe(email.toLowerCase());
    const d = browser();
    await d.client.signIn.email({ email, password: PASSWORD });
    const again = await d.client.twoFactor.verifyBackupCode({ code: backupCodes[0] });
    expect(again.error).toMatchObject({ status: 401, code: 'INVALID_BACKUP_CODE' });
  });

  it('generateBackupCodes gives a new set; disable turns the second factor off', async () => {
    const generated = await a().client.twoFactor.generateBackupCodes({ password: PASSWORD });
    expect(generated.error).toBeNull();
    expect(generated.data!.backupCodes).toHaveLength(10);
    const disabled = await a().client.twoFactor.disable({ password: PASSWORD });
    expect(disabled.error).toBeNull();
    expect(disabled.data).toEqual({ status: true });
    const e = browser();
    const plain = await e.client.signIn.email({ email, password: PASSWORD });
    expect(plain.data).toMatchObject({ redirect: false });
    expect(e.redirects).toEqual([]);
  });
});

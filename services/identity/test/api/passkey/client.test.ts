import { passkeyClient } from '@better-auth/passkey/client';
import { createAuthClient } from 'better-auth/client';
import { listenOnLoopback, startTestApp, type TestApp } from '../../setup/app';
import { browserFetch } from '../../setup/browser-client';
import { PASSWORD, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import { authenticator, PASSKEY_COOKIE } from './helpers';

/**
 * The published client's `passkeyClient()` against the service over real HTTP. In Node it cannot reach
 * navigator.credentials, so registration and sign-in go through the same routes by hand (the browser's fetches,
 * same cookie jar) with the software authenticator, and the client's own methods do the rest: list, rename,
 * delete, get-session.
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
  const client = createAuthClient({ baseURL, fetchOptions, plugins: [passkeyClient()] });
  /** What startRegistration/startAuthentication would send, through the same fetch (cookies, Origin). */
  const call = async (method: 'GET' | 'POST', path: string, body?: object) => {
    const response = await fetchOptions.customFetchImpl(`${baseURL}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: await response.json() };
  };
  return { client, jar, sent, call };
}

describe('better-auth client with passkeyClient', () => {
  const email = uniqueEmail('passkey');
  const device = authenticator();
  let first: ReturnType<typeof browser>;

  beforeAll(() => {
    first = browser();
  });

  it('a signed-in browser registers a passkey (the routes the client calls) and lists it with the client', async () => {
    const { error } = await first.client.signUp.email({ name: 'Passkey User', email, password: PASSWORD });
    expect(error).toBeNull();
    const options = await first.call('GET', '/passkey/generate-register-options?name=Laptop');
    expect(options.status).toBe(200);
    expect(first.jar.get(PASSKEY_COOKIE)).toBeDefined();
    const verified = await first.call('POST', '/passkey/verify-registration', {
      response: device.create(options.json),
      name: 'Laptop',
    });
    expect([verified.status, verified.json.name]).toEqual([200, 'Laptop']);
    const listed = await first.client.passkey.listUserPasskeys();
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([
      expect.objectContaining({ id: verified.json.id, name: 'Laptop', credentialID: device.id }),
    ]);
    const session = await first.client.getSession({ query: { disableCookieCache: true } });
    expect(session.data!.user).toMatchObject({ email, passkeyCount: 1 });
  });

  it('a new browser signs in with the passkey alone; the client sees the session', async () => {
    const b = browser();
    const options = await b.call('GET', '/passkey/generate-authenticate-options');
    expect(options.status).toBe(200);
    const signedIn = await b.call('POST', '/passkey/verify-authentication', { response: device.get(options.json) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.user.email).toBe(email);
    expect(b.jar.get(TOKEN_COOKIE)).toBeDefined();
    const session = await b.client.getSession();
    expect(session.data!.user.email).toBe(email);
    expect(b.sent.every((s) => s.path.startsWith('/api/auth/'))).toBe(true);
  });

  it('renames and deletes through the client; another browser’s user cannot touch it', async () => {
    const [passkey] = (await first.client.passkey.listUserPasskeys()).data!;
    const renamed = await first.client.passkey.updatePasskey({ id: passkey.id, name: 'Desk' });
    expect(renamed.error).toBeNull();
    expect(renamed.data!.passkey.name).toBe('Desk');

    const stranger = browser();
    await stranger.client.signUp.email({ name: 'Stranger', email: uniqueEmail('stranger'), password: PASSWORD });
    const stolen = await stranger.client.passkey.deletePasskey({ id: passkey.id });
    expect(stolen.error).toMatchObject({ status: 404, code: 'PASSKEY_NOT_FOUND' });
    const renamedByStranger = await stranger.client.passkey.updatePasskey({ id: passkey.id, name: 'Mine now' });
    expect(renamedByStranger.error).toMatchObject({ status: 404, code: 'PASSKEY_NOT_FOUND' });

    const deleted = await first.client.passkey.deletePasskey({ id: passkey.id });
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual({ status: true });
    expect((await first.client.passkey.listUserPasskeys()).data).toEqual([]);
    const b = browser();
    const options = await b.call('GET', '/passkey/generate-authenticate-options');
    const refused = await b.call('POST', '/passkey/verify-authentication', { response: device.get(options.json) });
    expect([refused.status, refused.json.code]).toEqual([401, 'PASSKEY_NOT_FOUND']);
  });
});

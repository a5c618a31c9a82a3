import { startTestApp, type TestApp } from '../../setup/app';
import { post, signIn, signUp } from '../../setup/fixtures';
import { signUpAdmin } from '../admin/helpers';
import { createKey, expectError, keyRow, server } from './helpers';

/**
 * Server-only routes accept an API key with the service permission as the service credential. This app
 * has no static SERVICE_API_KEY: the first service key is made by an admin (`apiKey: manage`).
 */
let t: TestApp;
let serviceKey: { id: string; key: string };
let plainKey: { id: string; key: string };
beforeAll(async () => {
  t = await startTestApp();
  const admin = await signUpAdmin(t);
  serviceKey = await createKey(t, { name: 'billing backend', permissions: { service: ['act'] } }, admin);
  plainKey = await createKey(t, { name: 'not a service key', permissions: { files: ['read'] } }, admin);
});
afterAll(() => t?.close());

const NEW = 'a first password 123';

async function passwordless() {
  const u = await signUp(t.app);
  await t.ctx.sql.query("DELETE FROM accounts WHERE user_id = $1 AND provider_id = 'credential'", [u.userId]);
  return u;
}

describe('POST /set-password', () => {
  it('refused without a key, with a key lacking the service permission, and from a browser with a service key', async () => {
    const u = await passwordless();
    const call = (key: string | null, origin: string | null = null) =>
      post(
        t.app,
        '/set-password',
        { newPassword: NEW },
        { origin, bearer: u.token, headers: key ? { 'x-api-key': key } : {} },
      );
    for (const res of [await call(null), await call(plainKey.key), await call(serviceKey.key, 'http://localhost:3000')])
      expectError(res, 403, 'SERVER_ONLY');
    expect((await signIn(t.app, u.email, NEW)).res.statusCode).toBe(401);
  });

  it("accepted with a service key and the user's session", async () => {
    const u = await passwordless();
    const before = (await keyRow(t, serviceKey.id)).request_count;
    const res = await post(
      t.app,
      '/set-password',
      { newPassword: NEW },
      { origin: null, bearer: u.token, headers: { 'x-api-key': serviceKey.key } },
    );
    expect(res.json()).toEqual({ status: true });
    expect((await signIn(t.app, u.email, NEW)).res.statusCode).toBe(200);
    expect((await keyRow(t, serviceKey.id)).request_count).toBe(before + 1);
  });

  it("a service key without the user's session is no session (never the key owner's password)", async () => {
    const res = await post(t.app, '/set-password', { newPassword: NEW }, server(serviceKey.key));
    expectError(res, 403, 'API_KEY_SESSION_NOT_ALLOWED');
  });
});

describe('POST /admin/has-permission without a session (server only)', () => {
  const ask = { permissions: { user: ['ban'] }, role: 'admin' };
  it('refused without a key (401) and with a key lacking the service permission (403)', async () => {
    expectError(await post(t.app, '/admin/has-permission', ask, { origin: null }), 401, 'UNAUTHORIZED');
    expectError(await post(t.app, '/admin/has-permission', ask, server(plainKey.key)), 403, 'SERVER_ONLY');
    expectError(await post(t.app, '/admin/has-permission', ask, server('q'.repeat(64))), 403, 'SERVER_ONLY');
  });

  it('accepted with a service key', async () => {
    expect((await post(t.app, '/admin/has-permission', ask, server(serviceKey.key))).json()).toEqual({
      success: true,
      error: null,
    });
    const user = { permissions: { user: ['ban'] }, role: 'user' };
    expect((await post(t.app, '/admin/has-permission', user, server(serviceKey.key))).json().success).toBe(false);
  });

  it('a disabled service key says so', async () => {
    const admin = await signUpAdmin(t);
    const k = await createKey(t, { permissions: { service: ['act'] } }, admin);
    await post(t.app, '/api-key/update', { keyId: k.id, enabled: false }, { jar: admin.jar });
    expectError(
      await post(t.app, '/admin/has-permission', ask, server(k.key)),
      401,
      'KEY_DISABLED',
      'API Key is disabled',
    );
  });
});

it('a service key is a trusted caller of the key routes (creates keys for a user)', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 10 }, server(serviceKey.key));
  expect(k).toMatchObject({ userId: u.userId, remaining: 10 });
});

it('a service key is a service credential for /introspect; a plain key is not', async () => {
  const u = await signUp(t.app);
  const res = await post(t.app, '/introspect', { token: u.token }, server(serviceKey.key));
  expect([res.statusCode, res.json().active, res.json().sub]).toEqual([200, true, u.userId]);
  expectError(await post(t.app, '/introspect', { token: u.token }, server(plainKey.key)), 403, 'SERVER_ONLY');
});

import { PassThrough } from 'node:stream';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, signIn, signUp } from '../../setup/fixtures';
import { signUpAdmin } from '../admin/helpers';
import { createKey, expectError, keyRow, SERVICE_KEY, server } from './helpers';

/** better-auth's sessions for API keys: the key in the header stands for its owner, on the routes that allow it. */
let t: TestApp;
let log = '';
beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk) => (log += chunk));
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY, LOG_LEVEL: 'info' }, sink);
});
afterAll(() => t?.close());

const withKey = (key: string) => ({ origin: null, headers: { 'x-api-key': key } });
const sessionCount = async (userId: string) =>
  (await t.ctx.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]))[0].n;

it('a key signs a request in as its owner; the session is never stored; one use is spent', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 5 }, server());
  const before = await sessionCount(u.userId);
  const created = await post(
    t.app,
    '/organization/create',
    { name: 'By key', slug: `by-key-${k.id.slice(0, 8)}` },
    withKey(k.key),
  );
  expect(created.statusCode).toBe(200);
  const list = await get(t.app, '/organization/list', withKey(k.key));
  expect(list.json().map((o: { id: string }) => o.id)).toEqual([created.json().id]);
  const updated = await post(t.app, '/update-user', { name: 'Renamed by key' }, withKey(k.key));
  expect(updated.statusCode).toBe(200);
  expect((await signIn(t.app, u.email)).res.json().user.name).toBe('Renamed by key');
  expect(await sessionCount(u.userId)).toBe(before + 1); // the sign-in just now; none for the key
  expect((await keyRow(t, k.id)).remaining).toBe(2);
});

it("an admin's key acts within the admin's permissions; a plain user's key does not gain any", async () => {
  const admin = await signUpAdmin(t);
  const plain = await signUp(t.app);
  const adminKey = await createKey(t, {}, admin);
  const plainKey = await createKey(t, {}, plain);
  expect((await get(t.app, '/admin/list-users?limit=1', withKey(adminKey.key))).statusCode).toBe(200);
  expectError(await get(t.app, '/admin/list-users?limit=1', withKey(plainKey.key)), 403, 'NOT_ALLOWED_TO_LIST_USERS');
});

it('refused on the routes a key may not use (change-password, list-sessions, …); nothing changes, no use spent', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 5 }, server());
  const change = await post(
    t.app,
    '/change-password',
    { currentPassword: PASSWORD, newPassword: 'another long password' },
    withKey(k.key),
  );
  expectError(change, 403, 'API_KEY_SESSION_NOT_ALLOWED', 'API keys are not accepted for this action');
  expectError(await get(t.app, '/list-sessions', withKey(k.key)), 403, 'API_KEY_SESSION_NOT_ALLOWED');
  expectError(await post(t.app, '/delete-user', {}, withKey(k.key)), 403, 'API_KEY_SESSION_NOT_ALLOWED');
  expectError(await get(t.app, '/token', withKey(k.key)), 403, 'API_KEY_SESSION_NOT_ALLOWED'); // no stored sid
  const unlink = await post(t.app, '/unlink-account', { providerId: 'credential' }, withKey(k.key));
  expectError(unlink, 403, 'API_KEY_SESSION_NOT_ALLOWED');
  expect((await signIn(t.app, u.email, PASSWORD)).res.statusCode).toBe(200);
  expect((await keyRow(t, k.id)).remaining).toBe(5);
  // Nor does a key manage keys as a session: the key header there must be the service credential.
  expectError(await post(t.app, '/api-key/create', {}, withKey(k.key)), 403, 'SERVER_ONLY');
});

it("keys of organizations and service keys are no user session; bad keys answer the key's refusal", async () => {
  const owner = await signUp(t.app);
  const org = (
    await post(t.app, '/organization/create', { name: 'O', slug: `o-${Date.now()}` }, { jar: owner.jar })
  ).json();
  const orgKey = await createKey(t, { organizationId: org.id }, owner);
  const serviceKey = await createKey(t, { userId: owner.userId, permissions: { service: ['act'] } }, server());
  for (const key of [orgKey.key, serviceKey.key])
    expectError(await get(t.app, '/organization/list', withKey(key)), 403, 'API_KEY_SESSION_NOT_ALLOWED');
  expectError(
    await get(t.app, '/organization/list', withKey('z'.repeat(64))),
    401,
    'INVALID_API_KEY',
    'Invalid API key.',
  );
  const limited = await createKey(t, { userId: owner.userId, rateLimitMax: 1, rateLimitTimeWindow: 60_000 }, server());
  expect((await get(t.app, '/organization/list', withKey(limited.key))).statusCode).toBe(200);
  const refused = await get(t.app, '/organization/list', withKey(limited.key));
  expectError(refused, 429, 'RATE_LIMITED', 'Rate limit exceeded.');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
});

it("a banned owner's key is refused; a session token wins over the key header", async () => {
  const admin = await signUpAdmin(t);
  const u = await signUp(t.app);
  const other = await signUp(t.app);
  const k = await createKey(t, {}, u);
  const both = await get(t.app, '/organization/list', { bearer: other.token, headers: { 'x-api-key': k.key } });
  expect(both.statusCode).toBe(200);
  expect((await keyRow(t, k.id)).last_request).toBeNull(); // the key was not used
  await post(t.app, '/admin/ban-user', { userId: u.userId }, { jar: admin.jar });
  expectError(await get(t.app, '/organization/list', withKey(k.key)), 403, 'BANNED_USER');
});

it('the key never reaches the request log', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, {}, u);
  await get(t.app, '/organization/list', withKey(k.key));
  await post(t.app, '/api-key/verify', { key: k.key }, server());
  await new Promise((r) => setImmediate(r));
  expect(log).toContain('/organization/list');
  expect(log.includes(k.key)).toBe(false);
  expect(log.includes(SERVICE_KEY)).toBe(false);
});

describe('with API_KEY_SESSIONS=false and a custom header', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp(
      {},
      { API_KEY_SESSIONS: 'false', API_KEY_HEADER: 'x-service-key', SERVICE_API_KEY: SERVICE_KEY },
    );
  });
  afterAll(() => off?.close());

  it('keys are not sessions, and the service credential is read from the configured header', async () => {
    const u = await signUp(off.app);
    const k = await createKey(off, {}, u);
    expectError(
      await get(off.app, '/organization/list', { headers: { 'x-service-key': k.key } }),
      401,
      'NOT_AUTHENTICATED',
    );
    const res = await post(
      off.app,
      '/api-key/verify',
      { key: k.key },
      { origin: null, headers: { 'x-service-key': SERVICE_KEY } },
    );
    expect(res.json().valid).toBe(true);
    expectError(await post(off.app, '/api-key/verify', { key: k.key }, server()), 403, 'SERVER_ONLY');
  });
});

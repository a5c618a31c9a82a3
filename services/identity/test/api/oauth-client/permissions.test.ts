import type { TestApp } from '../../setup/app';
import { type CookieJar, get, post, signUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createClient, oauthClientApp, SERVICE, written } from './helpers';

/** The admin `oauthClient` permission (docs/admin.md): each route asks for its action, and a refusal writes nothing. */
const db = migratedScratchDatabase('oauth_clients_permissions');
const start = oauthClientApp(db.url, {
  admin: {
    allowImpersonatingAdmins: true,
    roles: { 'client-reader': { oauthClient: ['read'] }, 'client-editor': { oauthClient: ['read', 'update'] } },
  },
});
let t: TestApp;
let clientId: string;

beforeAll(async () => {
  t = await start();
  const admin = await signUpAdmin(t);
  ({ clientId } = await createClient(t, admin.jar, SERVICE));
});
afterAll(() => t?.close());

type Call = [method: 'GET' | 'POST', path: string, body: () => object, action: string, code: string];
const CALLS: Call[] = [
  ['POST', 'create-oauth-client', () => SERVICE, 'create', 'NOT_ALLOWED_TO_CREATE_OAUTH_CLIENTS'],
  ['GET', 'list-oauth-clients', () => ({}), 'read', 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  ['GET', 'get-oauth-client', () => ({ clientId }), 'read', 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  ['GET', 'list-oauth-scopes', () => ({}), 'read', 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  [
    'POST',
    'update-oauth-client',
    () => ({ clientId, name: 'Taken over' }),
    'update',
    'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS',
  ],
  ['POST', 'rotate-oauth-client-secret', () => ({ clientId }), 'update', 'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS'],
  ['POST', 'delete-oauth-client', () => ({ clientId }), 'delete', 'NOT_ALLOWED_TO_DELETE_OAUTH_CLIENTS'],
];

function call([method, path, body]: Call, jar?: CookieJar) {
  const options = jar ? { jar } : {};
  if (method === 'GET')
    return get(t.app, `/admin/${path}?${new URLSearchParams(body() as Record<string, string>)}`, options);
  return post(t.app, `/admin/${path}`, body(), options);
}

describe('refusals', () => {
  it.each(CALLS.map((c) => [c[1], c] as const))(
    'a user without the permission: 403 on %s, nothing written',
    async (_p, c) => {
      const plain = await signUp(t.app);
      const before = await written(t);
      expectError(await call(c, plain.jar), 403, c[4]);
      expect(await written(t)).toEqual(before);
    },
  );

  it.each(CALLS.map((c) => [c[1], c] as const))('no session: 401 on %s', async (_p, c) => {
    expectError(await call(c), 401, 'UNAUTHORIZED');
  });

  it.each(CALLS.map((c) => [c[1], c] as const))("an admin's impersonation session: 403 on %s", async (_p, c) => {
    const a = await signUpAdmin(t);
    const b = await signUpAdmin(t);
    const jar = a.jar.clone();
    expect((await adminPost(t, 'impersonate-user', { userId: b.userId }, jar)).statusCode).toBe(200);
    const before = await written(t);
    expectError(await call(c, jar), 403, c[4]);
    expect(await written(t)).toEqual(before);
  });
});

describe('custom roles grant the actions they list', () => {
  it.each([
    ['client-reader', ['read']],
    ['client-editor', ['read', 'update']],
  ])('%s may %j and nothing else', async (role, actions) => {
    const u = await signUpAdmin(t, role);
    for (const c of CALLS.filter((c) => c[3] !== 'delete')) {
      const res = await call(c, u.jar);
      if (actions.includes(c[3])) expect([c[1], res.statusCode]).toEqual([c[1], 200]);
      else expectError(res, 403, c[4]);
    }
  });
});

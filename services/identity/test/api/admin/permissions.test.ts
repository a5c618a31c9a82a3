import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, type SignedUp, sessionOf, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminGet, adminPost, expectError, signUpAdmin, userRow } from './helpers';

const SERVICE_KEY = `svc-${randomBytes(16).toString('hex')}`;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { admin: { allowImpersonatingAdmins: true, roles: { support: { user: ['list', 'get'], session: ['list'] } } } },
    { SERVICE_API_KEY: SERVICE_KEY },
  );
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const GHOST_CLIENT = 'A'.repeat(24);
type Route = [method: 'GET' | 'POST', path: string, body: (target: SignedUp) => object | undefined, code: string];
/** Every admin route that acts, with the spec §8 (or documented extra) refusal it answers. */
const ROUTES: Route[] = [
  [
    'POST',
    'create-user',
    () => ({ email: uniqueEmail('refused'), password: PASSWORD, name: 'N' }),
    'NOT_ALLOWED_TO_CREATE_USERS',
  ],
  ['GET', 'get-user', (u) => ({ id: u.userId }), 'NOT_ALLOWED_TO_GET_USER'],
  ['POST', 'update-user', (u) => ({ userId: u.userId, data: { name: 'Hijacked' } }), 'NOT_ALLOWED_TO_UPDATE_USERS'],
  ['POST', 'set-role', (u) => ({ userId: u.userId, role: 'admin' }), 'NOT_ALLOWED_TO_CHANGE_USERS_ROLE'],
  ['GET', 'list-users', () => ({}), 'NOT_ALLOWED_TO_LIST_USERS'],
  ['POST', 'list-user-sessions', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_LIST_USERS_SESSIONS'],
  ['POST', 'ban-user', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_BAN_USERS'],
  ['POST', 'unban-user', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_BAN_USERS'],
  ['POST', 'impersonate-user', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_IMPERSONATE_USERS'],
  ['POST', 'revoke-user-session', (u) => ({ sessionToken: u.token }), 'NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'],
  ['POST', 'revoke-user-sessions', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'],
  ['POST', 'remove-user', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_DELETE_USERS'],
  [
    'POST',
    'set-user-password',
    (u) => ({ userId: u.userId, newPassword: 'another long password' }),
    'NOT_ALLOWED_TO_SET_USERS_PASSWORD',
  ],
  ['GET', 'list-organizations', () => ({}), 'NOT_ALLOWED_TO_LIST_ORGANIZATIONS'],
  ['GET', 'list-roles', () => ({}), 'NOT_ALLOWED_TO_LIST_USERS'],
  ['GET', 'stats', () => ({}), 'NOT_ALLOWED_TO_LIST_USERS'],
  ['POST', 'send-reset-password', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_SET_USERS_PASSWORD'],
  ['POST', 'send-verification-email', (u) => ({ userId: u.userId }), 'NOT_ALLOWED_TO_UPDATE_USERS'],
  [
    'POST',
    'create-webhook-endpoint',
    () => ({ url: 'https://hooks.example.com/in', eventTypes: ['user.'] }),
    'NOT_ALLOWED_TO_CREATE_WEBHOOKS',
  ],
  ['GET', 'list-webhook-endpoints', () => ({}), 'NOT_ALLOWED_TO_READ_WEBHOOKS'],
  ['POST', 'update-webhook-endpoint', () => ({ id: GHOST, enabled: false }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
  ['POST', 'delete-webhook-endpoint', () => ({ id: GHOST }), 'NOT_ALLOWED_TO_DELETE_WEBHOOKS'],
  ['POST', 'rotate-webhook-secret', () => ({ id: GHOST }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
  ['GET', 'list-webhook-deliveries', () => ({ endpointId: GHOST }), 'NOT_ALLOWED_TO_READ_WEBHOOKS'],
  ['POST', 'send-test-webhook', () => ({ id: GHOST }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
  ['POST', 'redeliver-webhook', () => ({ id: GHOST, eventId: GHOST }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
  [
    'POST',
    'create-oauth-client',
    () => ({ name: 'Refused', type: 'confidential', grantTypes: ['client_credentials'], scopes: ['openid'] }),
    'NOT_ALLOWED_TO_CREATE_OAUTH_CLIENTS',
  ],
  ['GET', 'list-oauth-clients', () => ({}), 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  ['GET', 'get-oauth-client', () => ({ clientId: GHOST_CLIENT }), 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  ['GET', 'list-oauth-scopes', () => ({}), 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS'],
  [
    'POST',
    'update-oauth-client',
    () => ({ clientId: GHOST_CLIENT, name: 'Hijacked' }),
    'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS',
  ],
  ['POST', 'rotate-oauth-client-secret', () => ({ clientId: GHOST_CLIENT }), 'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS'],
  ['POST', 'delete-oauth-client', () => ({ clientId: GHOST_CLIENT }), 'NOT_ALLOWED_TO_DELETE_OAUTH_CLIENTS'],
];

function call(route: Route, target: SignedUp, options: { jar?: SignedUp['jar'] }) {
  const [method, path, body] = route;
  if (method === 'GET')
    return get(t.app, `/admin/${path}?${new URLSearchParams(body(target) as Record<string, string>)}`, options);
  return post(t.app, `/admin/${path}`, body(target), options);
}

async function snapshot(u: SignedUp) {
  const sessions = await t.ctx.sql.query('SELECT token FROM sessions WHERE user_id = $1 ORDER BY token', [u.userId]);
  // Users create-user would have made (its emails start with "refused-"): other test files add users meanwhile.
  const users = await t.ctx.sql.query("SELECT count(*)::int AS n FROM users WHERE email LIKE 'refused-%'");
  // Webhook endpoints: no other test file makes any in this database (the webhook tests have databases of their own).
  const webhooks = await t.ctx.sql.query('SELECT count(*)::int AS n FROM webhook_endpoints');
  // OAuth clients: likewise (the OAuth client tests have databases of their own).
  const clients = await t.ctx.sql.query('SELECT count(*)::int AS n FROM oauth_clients');
  return {
    user: await userRow(t, u.userId),
    sessions,
    users: users[0].n,
    webhooks: webhooks[0].n,
    clients: clients[0].n,
  };
}

describe('admin refusals: a plain user and an impersonation session on every admin route', () => {
  const callers: Array<[string, () => Promise<SignedUp['jar']>]> = [
    ['a plain user', async () => (await signUp(t.app)).jar],
    [
      "an admin's impersonation session (of another admin)",
      async () => {
        const a = await signUpAdmin(t);
        const b = await signUpAdmin(t);
        const jar = a.jar.clone();
        const res = await adminPost(t, 'impersonate-user', { userId: b.userId }, jar);
        expect(res.json().session.impersonatedBy).toBe(a.userId);
        return jar;
      },
    ],
  ];
  for (const [who, makeJar] of callers)
    it.each(ROUTES.map((r) => [r[1], r] as const))(`${who} is refused on %s; nothing changes`, async (_p, route) => {
      const jar = await makeJar();
      const target = await signUp(t.app);
      const before = await snapshot(target);
      const res = await call(route, target, { jar });
      expectError(res, 403, route[3]);
      expect(res.json().message).toMatch(/^You are not allowed to /);
      expect(await snapshot(target)).toEqual(before);
    });

  it.each(ROUTES.map((r) => [r[1], r] as const))('no session: 401 on %s', async (_p, route) => {
    const target = await signUp(t.app);
    expectError(await call(route, target, {}), 401, 'UNAUTHORIZED');
  });

  it('the nine spec §8 refusal texts are the ones answered', async () => {
    const u = await signUp(t.app);
    const texts = new Set<string>();
    for (const route of ROUTES) texts.add((await call(route, u, { jar: u.jar })).json().message);
    for (const text of [
      'You are not allowed to change users role',
      'You are not allowed to create users',
      'You are not allowed to list users',
      'You are not allowed to list users sessions',
      'You are not allowed to ban users',
      'You are not allowed to impersonate users',
      'You are not allowed to revoke users sessions',
      'You are not allowed to delete users',
      'You are not allowed to set users password',
    ])
      expect(texts).toContain(text);
  });
});

describe('roles: custom roles, comma lists and configured admin ids', () => {
  it('a custom role grants only what the configuration lists', async () => {
    const s = await signUpAdmin(t, 'support');
    const u = await signUp(t.app);
    expect((await adminGet(t, 'list-users', s.jar)).statusCode).toBe(200);
    expect((await adminGet(t, `get-user?id=${u.userId}`, s.jar)).statusCode).toBe(200);
    expectError(await adminPost(t, 'ban-user', { userId: u.userId }, s.jar), 403, 'NOT_ALLOWED_TO_BAN_USERS');
  });

  it('any one of several comma-separated roles is enough', async () => {
    const s = await signUpAdmin(t, 'user,admin');
    expect((await adminGet(t, 'list-users', s.jar)).statusCode).toBe(200);
  });

  it('a user whose id is configured in adminUserIds always passes', async () => {
    const u = await signUp(t.app);
    expectError(await adminGet(t, 'list-users', u.jar), 403, 'NOT_ALLOWED_TO_LIST_USERS');
    t.config.admin.adminUserIds.push(u.userId);
    try {
      expect((await adminGet(t, 'list-users', u.jar)).statusCode).toBe(200);
      expect((await adminPost(t, 'has-permission', { permissions: { user: ['ban'] } }, u.jar)).json()).toEqual({
        error: null,
        success: true,
      });
    } finally {
      t.config.admin.adminUserIds.pop();
    }
  });
});

describe('admin has-permission', () => {
  it("answers for the session's user", async () => {
    const admin = await signUpAdmin(t);
    const plain = await signUp(t.app);
    const ask = { permissions: { user: ['ban', 'list'], session: ['revoke'] } };
    expect((await adminPost(t, 'has-permission', ask, admin.jar)).json()).toEqual({ error: null, success: true });
    expect((await adminPost(t, 'has-permission', ask, plain.jar)).json()).toEqual({ error: null, success: false });
    expect((await adminPost(t, 'has-permission', { permission: { user: ['list'] } }, admin.jar)).json().success).toBe(
      true,
    );
    // a userId or role in the body never lets a session ask about someone else
    expect((await adminPost(t, 'has-permission', { ...ask, role: 'admin' }, plain.jar)).json().success).toBe(false);
  });

  it('without permissions: "invalid permission check. no permission(s) were passed."', async () => {
    const admin = await signUpAdmin(t);
    for (const body of [{}, { permissions: {} }, { permissions: { user: [] } }])
      expectError(
        await adminPost(t, 'has-permission', body, admin.jar),
        400,
        'INVALID_PERMISSION_CHECK',
        'invalid permission check. no permission(s) were passed.',
      );
    expectError(await post(t.app, '/admin/has-permission', {}, { origin: null }), 400, 'INVALID_PERMISSION_CHECK');
  });

  it('without a session: 401, unless a server sends the service credential with a user id or role', async () => {
    const ask = { permissions: { user: ['ban'] } };
    const plain = await signUp(t.app);
    const admin = await signUpAdmin(t);
    const server = (body: object) =>
      post(t.app, '/admin/has-permission', body, { origin: null, headers: { 'x-api-key': SERVICE_KEY } });
    expectError(
      await post(t.app, '/admin/has-permission', { ...ask, role: 'admin' }, { origin: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await post(
        t.app,
        '/admin/has-permission',
        { ...ask, role: 'admin' },
        { origin: null, headers: { 'x-api-key': 'wrong' } },
      ),
      403,
      'SERVER_ONLY',
    );
    expect((await server({ ...ask, role: 'admin' })).json()).toEqual({ error: null, success: true });
    expect((await server({ ...ask, role: 'user' })).json().success).toBe(false);
    expect((await server({ ...ask, userId: admin.userId })).json().success).toBe(true);
    expect((await server({ ...ask, userId: plain.userId })).json().success).toBe(false);
    expectError(await server({ ...ask, userId: GHOST }), 404, 'ADMIN_USER_NOT_FOUND', 'user not found');
    expectError(await server(ask), 400, 'USER_ID_OR_ROLE_REQUIRED');
  });

  it('an impersonation session holds no admin permission', async () => {
    const a = await signUpAdmin(t);
    const b = await signUpAdmin(t);
    const jar = a.jar.clone();
    await adminPost(t, 'impersonate-user', { userId: b.userId }, jar);
    expect((await sessionOf(t.app, { jar })).user.id).toBe(b.userId);
    expect((await adminPost(t, 'has-permission', { permissions: { user: ['list'] } }, jar)).json().success).toBe(false);
  });
});

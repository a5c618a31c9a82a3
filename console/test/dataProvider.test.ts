import { describe, expect, it } from 'vitest';
import { makeDataProvider } from '../src/providers/dataProvider';
import { aSession, aUser, fakeApi } from './fakeFetch';

const list = { pagination: { page: 3, perPage: 10 }, sort: { field: 'email', order: 'ASC' as const }, filter: {} };

describe('dataProvider users', () => {
  it('getList maps pagination and sort to list-users and returns users with the total', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [aUser()], total: 41, limit: 10, offset: 20 } } });
    const result = await makeDataProvider(api.client).getList('users', list);
    expect(api.last()).toMatchObject({
      method: 'GET',
      path: '/admin/list-users',
      query: { limit: '10', offset: '20', sortBy: 'email', sortDirection: 'asc' },
      credentials: 'include',
    });
    expect(result).toEqual({ data: [aUser()], total: 41 });
  });

  it('q searches part of the email or the name in one box (searchField any), with contains', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [], total: 0 } } });
    const dp = makeDataProvider(api.client);
    await dp.getList('users', { ...list, filter: { q: ' ada@ex ' } });
    expect(api.last().query).toMatchObject({ searchValue: 'ada@ex', searchField: 'any', searchOperator: 'contains' });
    await dp.getList('users', { ...list, filter: { q: 'müller' } });
    expect(api.last().query).toMatchObject({ searchValue: 'müller', searchField: 'any', searchOperator: 'contains' });
    await dp.getList('users', { ...list, filter: { q: 'Ada', searchField: 'email' } });
    expect(api.last().query).toMatchObject({ searchValue: 'Ada', searchField: 'email' });
  });

  it('every filter set is sent as its own parameter (role, banned, emailVerified: all apply)', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [], total: 0 } } });
    const dp = makeDataProvider(api.client);
    await dp.getList('users', { ...list, filter: { role: 'admin' } });
    expect(api.last().query).toMatchObject({ role: 'admin' });
    await dp.getList('users', { ...list, filter: { banned: true, emailVerified: true, role: 'user', q: 'ada' } });
    expect(api.last().query).toMatchObject({ banned: 'true', emailVerified: 'true', role: 'user', searchValue: 'ada' });
    expect(api.last().query).not.toHaveProperty('filterField');
    await dp.getList('users', { ...list, filter: { banned: false, emailVerified: '', role: null } });
    expect(api.last().query).toMatchObject({ banned: 'false' });
    expect(api.last().query).not.toHaveProperty('emailVerified');
    expect(api.last().query).not.toHaveProperty('role');
  });

  it('an unknown sort field is not sent (the API default applies)', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [], total: 0 } } });
    await makeDataProvider(api.client).getList('users', { ...list, sort: { field: 'nope', order: 'DESC' } });
    expect(api.last().query).not.toHaveProperty('sortBy');
  });

  it('getOne, create, update and delete call get-user, create-user, update-user and remove-user', async () => {
    const api = fakeApi({
      'GET /admin/get-user': { body: aUser() },
      'POST /admin/create-user': { body: { user: aUser({ id: 'u2' }) } },
      'POST /admin/update-user': { body: aUser({ name: 'Ada L' }) },
      'POST /admin/remove-user': { body: { success: true } },
    });
    const dp = makeDataProvider(api.client);
    expect((await dp.getOne('users', { id: 'u1' })).data).toEqual(aUser());
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/get-user', query: { id: 'u1' } });

    const created = await dp.create('users', { data: { email: 'b@x.io', password: 'pw123456!', name: 'B', role: '' } });
    expect(created.data.id).toBe('u2');
    expect(api.last()).toMatchObject({
      path: '/admin/create-user',
      body: { email: 'b@x.io', password: 'pw123456!', name: 'B' },
    });

    await dp.update('users', { id: 'u1', data: aUser({ name: 'Ada L' }), previousData: aUser() });
    expect(api.last()).toMatchObject({ path: '/admin/update-user', body: { userId: 'u1', data: { name: 'Ada L' } } });

    await dp.delete('users', { id: 'u1', previousData: aUser() });
    expect(api.last()).toMatchObject({ method: 'POST', path: '/admin/remove-user', body: { userId: 'u1' } });
  });

  it("create's refusal about a field comes back as react-admin's form errors (the page shows it under the field)", async () => {
    const taken = { code: 'USER_ALREADY_EXISTS', message: 'User already exists' };
    let reply = { status: 422, body: taken as unknown };
    const api = fakeApi({ 'POST /admin/create-user': () => reply });
    const dp = makeDataProvider(api.client);
    const data = { email: 'b@x.io', password: 'pw123456!', name: 'B' };
    const error = await dp.create('users', { data }).catch((e) => e);
    expect([error.message, error.status]).toEqual(['User already exists', 422]);
    expect(error.body).toEqual({ ...taken, errors: { email: 'User already exists' } });
    // A refusal about no field of the form stays a plain error (a notification).
    reply = { status: 403, body: { code: 'NOT_ALLOWED_TO_CREATE_USERS', message: 'Not allowed' } };
    const other = await dp.create('users', { data }).catch((e) => e);
    expect(other.body).toEqual({ code: 'NOT_ALLOWED_TO_CREATE_USERS', message: 'Not allowed' });
  });

  it('an API error surfaces the catalogue message, with the status and code kept', async () => {
    const api = fakeApi({
      'POST /admin/ban-user': {
        status: 403,
        body: { code: 'YOU_CANNOT_BAN_YOURSELF', message: 'You cannot ban yourself' },
      },
    });
    const error = await makeDataProvider(api.client)
      .banUser('u1')
      .catch((e) => e);
    expect(error.message).toBe('You cannot ban yourself');
    expect(error.status).toBe(403);
    expect(error.body.code).toBe('YOU_CANNOT_BAN_YOURSELF');
  });
});

describe('dataProvider named admin methods', () => {
  it('each calls its admin route with the documented body', async () => {
    const api = fakeApi({
      'POST /admin/ban-user': { body: { user: aUser({ banned: true }) } },
      'POST /admin/unban-user': { body: { user: aUser() } },
      'POST /admin/set-role': { body: { user: aUser({ role: 'admin' }) } },
      'POST /admin/set-user-password': { body: { status: true } },
      'POST /admin/impersonate-user': { body: { session: aSession({ impersonatedBy: 'a1' }), user: aUser() } },
      'POST /admin/stop-impersonating': { body: { session: aSession(), user: aUser() } },
      'POST /admin/list-user-sessions': { body: { sessions: [aSession()] } },
      'POST /admin/revoke-user-session': { body: { success: true } },
      'POST /admin/revoke-user-sessions': { body: { success: true } },
      'POST /admin/send-reset-password': { body: { status: true } },
      'POST /admin/send-verification-email': { body: { status: true } },
      'POST /admin/reset-two-factor': { body: { user: aUser({ twoFactorEnabled: false }) } },
    });
    const dp = makeDataProvider(api.client);
    const calls: [() => Promise<unknown>, string, unknown][] = [
      [
        () => dp.banUser('u1', 'spam', 3600),
        '/admin/ban-user',
        { userId: 'u1', banReason: 'spam', banExpiresIn: 3600 },
      ],
      [() => dp.banUser('u1'), '/admin/ban-user', { userId: 'u1' }],
      [() => dp.unbanUser('u1'), '/admin/unban-user', { userId: 'u1' }],
      [() => dp.setRole('u1', 'admin'), '/admin/set-role', { userId: 'u1', role: 'admin' }],
      [
        () => dp.setUserPassword('u1', 'n3w-pass!'),
        '/admin/set-user-password',
        { userId: 'u1', newPassword: 'n3w-pass!' },
      ],
      [() => dp.impersonateUser('u1'), '/admin/impersonate-user', { userId: 'u1' }],
      [() => dp.stopImpersonating(), '/admin/stop-impersonating', undefined],
      // Sessions are listed without their tokens and revoked by id: the console never holds another user's token.
      [() => dp.listUserSessions('u1'), '/admin/list-user-sessions', { userId: 'u1', hideTokens: true }],
      [() => dp.revokeUserSession('s1'), '/admin/revoke-user-session', { sessionId: 's1' }],
      [() => dp.revokeUserSessions('u1'), '/admin/revoke-user-sessions', { userId: 'u1' }],
      [() => dp.sendResetPassword('u1'), '/admin/send-reset-password', { userId: 'u1' }],
      [() => dp.sendVerificationEmail('u1'), '/admin/send-verification-email', { userId: 'u1' }],
      [() => dp.resetTwoFactor('u1'), '/admin/reset-two-factor', { userId: 'u1' }],
    ];
    for (const [call, path, body] of calls) {
      await call();
      expect(api.last()).toMatchObject({ method: 'POST', path, credentials: 'include' });
      expect(api.last().body).toEqual(body);
    }
    expect(await dp.listUserSessions('u1')).toEqual([aSession()]);
    expect((await dp.banUser('u1')).banned).toBe(true);
    expect((await dp.resetTwoFactor('u1')).twoFactorEnabled).toBe(false);
  });
});

describe('dataProvider organizations', () => {
  const org = { id: 'o1', name: 'Acme', slug: 'acme', logo: null, metadata: null, createdAt: '2026-01-01T00:00:00Z' };

  it('getList pages admin/list-organizations; getOne reads admin/organization/get (no membership needed)', async () => {
    const full = { ...org, members: [], invitations: [], teams: [], teamMembers: [] };
    const api = fakeApi({
      'GET /admin/list-organizations': {
        body: { organizations: [{ ...org, memberCount: 3 }], total: 1, limit: 5, offset: 5 },
      },
      'GET /admin/organization/get': { body: full },
    });
    const dp = makeDataProvider(api.client);
    const page = await dp.getList('organizations', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(api.last()).toMatchObject({ path: '/admin/list-organizations', query: { limit: '5', offset: '5' } });
    expect(page).toEqual({ data: [{ ...org, memberCount: 3 }], total: 1 });
    expect((await dp.getOne('organizations', { id: 'o1' })).data).toEqual(full);
    expect(api.last()).toMatchObject({ path: '/admin/organization/get', query: { organizationId: 'o1' } });
  });

  it('getList sends the search as searchValue and the sort as sortBy/sortDirection (known columns only)', async () => {
    const api = fakeApi({ 'GET /admin/list-organizations': { body: { organizations: [], total: 0 } } });
    const dp = makeDataProvider(api.client);
    await dp.getList('organizations', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: '  acme ' },
    });
    expect(api.last().query).toEqual({
      limit: '25',
      offset: '0',
      searchValue: 'acme',
      sortBy: 'name',
      sortDirection: 'asc',
    });
    await dp.getList('organizations', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: '' },
    });
    expect(api.last().query).toEqual({ limit: '25', offset: '0', sortBy: 'createdAt', sortDirection: 'desc' });
    await dp.getList('organizations', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'slug', order: 'ASC' },
      filter: {},
    });
    expect(api.last().query).toEqual({ limit: '25', offset: '0' });
  });

  it('updateOrganization sends the changes as admin/organization/update data', async () => {
    const api = fakeApi({ 'POST /admin/organization/update': { body: { ...org, name: 'Renamed' } } });
    const dp = makeDataProvider(api.client);
    expect((await dp.updateOrganization('o1', { name: 'Renamed', metadata: { plan: 'pro' } })).name).toBe('Renamed');
    expect(api.last()).toMatchObject({ method: 'POST', path: '/admin/organization/update' });
    expect(api.last().body).toEqual({ organizationId: 'o1', data: { name: 'Renamed', metadata: { plan: 'pro' } } });
  });

  it('deleteOrganization calls admin/organization/delete', async () => {
    const api = fakeApi();
    await makeDataProvider(api.client).deleteOrganization('o1');
    expect(api.last()).toMatchObject({
      method: 'POST',
      path: '/admin/organization/delete',
      body: { organizationId: 'o1' },
    });
  });

  it('addMember calls admin/organization/add-member with the user and the roles', async () => {
    const api = fakeApi();
    await makeDataProvider(api.client).addMember('o1', 'u1', 'admin,member');
    expect(api.last()).toMatchObject({ method: 'POST', path: '/admin/organization/add-member' });
    expect(api.last().body).toEqual({ organizationId: 'o1', userId: 'u1', role: 'admin,member' });
  });

  it('create sends name, slug and the owner (when chosen) to admin/organization/create', async () => {
    const api = fakeApi({ 'POST /admin/organization/create': { body: { ...org, members: [] } } });
    const dp = makeDataProvider(api.client);
    expect((await dp.create('organizations', { data: { name: 'Acme', slug: 'acme', userId: 'u9' } })).data.id).toBe(
      'o1',
    );
    expect(api.last().body).toEqual({ name: 'Acme', slug: 'acme', userId: 'u9' });
    await dp.create('organizations', { data: { name: 'Acme', slug: 'acme', userId: '' } });
    expect(api.last().body).toEqual({ name: 'Acme', slug: 'acme' });
  });

  it('create: a slug another organization holds comes back as an error of the slug field', async () => {
    const taken = { code: 'ORGANIZATION_ALREADY_EXISTS', message: 'Organization already exists' };
    const api = fakeApi({ 'POST /admin/organization/create': { status: 400, body: taken } });
    const error = await makeDataProvider(api.client)
      .create('organizations', { data: { name: 'Acme', slug: 'acme' } })
      .catch((e) => e);
    expect(error.body.errors).toEqual({ slug: 'Organization already exists' });
  });

  it('each operator action calls its admin/organization route with the organization id', async () => {
    const api = fakeApi();
    const dp = makeDataProvider(api.client);
    const calls: [() => Promise<unknown>, string, unknown][] = [
      [
        () => dp.inviteMember('o1', 'x@y.io', 'admin'),
        '/admin/organization/invite-member',
        { organizationId: 'o1', email: 'x@y.io', role: 'admin' },
      ],
      [
        () => dp.inviteMember('o1', 'x@y.io', 'admin', true),
        '/admin/organization/invite-member',
        { organizationId: 'o1', email: 'x@y.io', role: 'admin', resend: true },
      ],
      [() => dp.cancelInvitation('i1'), '/admin/organization/cancel-invitation', { invitationId: 'i1' }],
      [
        () => dp.updateMemberRole('o1', 'm1', 'admin'),
        '/admin/organization/update-member-role',
        { organizationId: 'o1', memberId: 'm1', role: 'admin' },
      ],
      [
        () => dp.removeMember('o1', 'm1'),
        '/admin/organization/remove-member',
        { organizationId: 'o1', memberIdOrEmail: 'm1' },
      ],
      [() => dp.createTeam('o1', 'Ops'), '/admin/organization/create-team', { organizationId: 'o1', name: 'Ops' }],
      [
        () => dp.renameTeam('o1', 't1', 'Care'),
        '/admin/organization/update-team',
        { organizationId: 'o1', teamId: 't1', name: 'Care' },
      ],
      [() => dp.removeTeam('o1', 't1'), '/admin/organization/remove-team', { organizationId: 'o1', teamId: 't1' }],
      [
        () => dp.addTeamMember('o1', 't1', 'u1'),
        '/admin/organization/add-team-member',
        { organizationId: 'o1', teamId: 't1', userId: 'u1' },
      ],
      [
        () => dp.removeTeamMember('o1', 't1', 'u1'),
        '/admin/organization/remove-team-member',
        { organizationId: 'o1', teamId: 't1', userId: 'u1' },
      ],
    ];
    for (const [call, path, body] of calls) {
      await call();
      expect(api.last()).toMatchObject({ method: 'POST', path, credentials: 'include' });
      expect(api.last().body).toEqual(body);
    }
  });

  it("a refused action rejects with the catalogue's message and keeps its code", async () => {
    const refusal = {
      code: 'CANNOT_LEAVE_AS_ONLY_OWNER',
      message: 'You cannot leave the organization as the only owner',
    };
    const api = fakeApi({ 'POST /admin/organization/remove-member': { status: 400, body: refusal } });
    const error = await makeDataProvider(api.client)
      .removeMember('o1', 'm1')
      .catch((e) => e);
    expect(error.message).toBe(refusal.message);
    expect(error.status).toBe(400);
    expect(error.body.code).toBe(refusal.code);
  });

  it('refuses methods a resource does not offer', async () => {
    const dp = makeDataProvider(fakeApi().client);
    await expect(dp.delete('organizations', { id: 'o1' })).rejects.toThrow('delete on organizations is not supported');
  });
});

describe('dataProvider roles', () => {
  it('listRoles reads admin/list-roles: the user roles, the default, and the organization roles', async () => {
    const catalogue = {
      roles: [
        { name: 'admin', admin: true, permissions: { user: ['list', 'ban'] } },
        { name: 'user', admin: false, permissions: {} },
      ],
      defaultRole: 'user',
      organizationRoles: [{ name: 'owner', creator: true, permissions: { organization: ['delete'] } }],
    };
    const api = fakeApi({ 'GET /admin/list-roles': { body: catalogue } });
    expect(await makeDataProvider(api.client).listRoles()).toEqual(catalogue);
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/list-roles', credentials: 'include' });
    expect(api.last().body).toBeUndefined();
  });

  it("a refused listRoles rejects with the catalogue's message (the pickers then fall back to text)", async () => {
    const refusal = { code: 'NOT_ALLOWED_TO_LIST_USERS', message: 'You are not allowed to list users' };
    const api = fakeApi({ 'GET /admin/list-roles': { status: 403, body: refusal } });
    const error = await makeDataProvider(api.client)
      .listRoles()
      .catch((e) => e);
    expect(error.message).toBe(refusal.message);
    expect(error.status).toBe(403);
    expect(error.body.code).toBe(refusal.code);
  });
});

describe('dataProvider dashboard and pickers', () => {
  it('getStats reads admin/stats for the days asked', async () => {
    const stats = {
      users: 3,
      newUsers7d: 1,
      activeSessions: 2,
      bannedUsers: 0,
      organizations: 1,
      signUpsPerDay: [{ day: '2026-11-24', count: 1 }],
    };
    const api = fakeApi({ 'GET /admin/stats': { body: stats } });
    expect(await makeDataProvider(api.client).getStats(30)).toEqual(stats);
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/stats', query: { days: '30' } });
  });

  it('searchUsersByEmail searches the email with contains, a few at a time', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [aUser()], total: 1 } } });
    expect(await makeDataProvider(api.client).searchUsersByEmail('ada')).toEqual([aUser()]);
    expect(api.last().query).toEqual({
      searchValue: 'ada',
      searchField: 'email',
      searchOperator: 'contains',
      limit: '10',
    });
  });
});

describe('dataProvider user sections', () => {
  it("reads a user's linked accounts and organizations", async () => {
    const account = {
      id: 'a1',
      providerId: 'github',
      accountId: '42',
      scopes: ['read:user'],
      createdAt: 'x',
      updatedAt: 'x',
    };
    const membership = { organization: { id: 'o1' }, memberId: 'm1', role: 'owner', joinedAt: 'x' };
    const api = fakeApi({
      'GET /admin/list-user-accounts': { body: [account] },
      'GET /admin/list-user-organizations': { body: [membership] },
    });
    const dp = makeDataProvider(api.client);
    expect(await dp.listUserAccounts('u1')).toEqual([account]);
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/list-user-accounts', query: { userId: 'u1' } });
    expect(await dp.listUserOrganizations('u1')).toEqual([membership]);
    expect(api.last()).toMatchObject({ path: '/admin/list-user-organizations', query: { userId: 'u1' } });
  });

  it("reads a user's passkeys from admin/list-user-passkeys", async () => {
    const passkey = {
      id: 'p1',
      name: 'Laptop',
      deviceType: 'multiDevice',
      backedUp: true,
      aaguid: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const api = fakeApi({ 'GET /admin/list-user-passkeys': { body: [passkey] } });
    expect(await makeDataProvider(api.client).listUserPasskeys('u1')).toEqual([passkey]);
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/list-user-passkeys', query: { userId: 'u1' } });
  });
});

describe('dataProvider webhooks', () => {
  const endpoint = {
    id: 'e1',
    url: 'https://hooks.example.com/in',
    eventTypes: ['admin.user.'],
    enabled: true,
    description: null,
    disabledReason: null,
    failingSince: null,
    previousSecretExpiresAt: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  };

  it('getList reads every endpoint; getOne finds one in that list (there is no call for one)', async () => {
    const api = fakeApi({ 'GET /admin/list-webhook-endpoints': { body: { endpoints: [endpoint] } } });
    const dp = makeDataProvider(api.client);
    expect(await dp.getList('webhooks', list)).toEqual({ data: [endpoint], total: 1 });
    expect(api.last()).toMatchObject({ method: 'GET', path: '/admin/list-webhook-endpoints', query: {} });
    expect((await dp.getOne('webhooks', { id: 'e1' })).data).toEqual(endpoint);
    await expect(dp.getOne('webhooks', { id: 'gone' })).rejects.toMatchObject({
      status: 404,
      message: 'Webhook endpoint not found',
    });
  });

  it('create, update, delete, rotate, send a test and redeliver call their admin routes', async () => {
    const api = fakeApi({
      'POST /admin/create-webhook-endpoint': { body: { endpoint, secret: 'whsec_a' } },
      'POST /admin/update-webhook-endpoint': { body: { endpoint: { ...endpoint, enabled: false } } },
      'POST /admin/delete-webhook-endpoint': { body: { success: true } },
      'POST /admin/rotate-webhook-secret': { body: { endpoint, secret: 'whsec_b' } },
      'POST /admin/send-test-webhook': { body: { webhookId: 'msg_t' } },
      'POST /admin/redeliver-webhook': { body: { webhookId: 'msg_ev1' } },
    });
    const dp = makeDataProvider(api.client);
    const body = { url: endpoint.url, eventTypes: ['admin.user.'], enabled: true };
    expect(await dp.createWebhookEndpoint(body)).toEqual({ endpoint, secret: 'whsec_a' });
    expect(api.last()).toMatchObject({ method: 'POST', path: '/admin/create-webhook-endpoint', body });
    expect((await dp.updateWebhookEndpoint('e1', { enabled: false, description: null })).enabled).toBe(false);
    expect(api.last().body).toEqual({ id: 'e1', enabled: false, description: null });
    await dp.deleteWebhookEndpoint('e1');
    expect(api.last()).toMatchObject({ path: '/admin/delete-webhook-endpoint', body: { id: 'e1' } });
    expect((await dp.rotateWebhookSecret('e1')).secret).toBe('whsec_b');
    expect(api.last()).toMatchObject({ path: '/admin/rotate-webhook-secret', body: { id: 'e1' } });
    expect(await dp.sendTestWebhook('e1')).toBe('msg_t');
    expect(api.last()).toMatchObject({ path: '/admin/send-test-webhook', body: { id: 'e1' } });
    expect(await dp.redeliverWebhook('e1', 'ev1')).toBe('msg_ev1');
    expect(api.last()).toMatchObject({ path: '/admin/redeliver-webhook', body: { id: 'e1', eventId: 'ev1' } });
  });

  it('the delivery log pages with the cursor the API gave', async () => {
    const api = fakeApi({ 'GET /admin/list-webhook-deliveries': { body: { deliveries: [], nextCursor: null } } });
    const dp = makeDataProvider(api.client);
    await dp.listWebhookDeliveries('e1');
    expect(api.last().query).toEqual({ endpointId: 'e1', limit: '50' });
    await dp.listWebhookDeliveries('e1', 'c2', 10);
    expect(api.last().query).toEqual({ endpointId: 'e1', limit: '10', cursor: 'c2' });
  });

  it("a refusal rejects with the catalogue's message and keeps its details (the form shows them)", async () => {
    const refusal = {
      code: 'INVALID_WEBHOOK_URL',
      message: 'Invalid webhook URL',
      details: [{ field: 'url', problem: 'is not a URL' }],
    };
    const api = fakeApi({ 'POST /admin/create-webhook-endpoint': { status: 400, body: refusal } });
    await expect(
      makeDataProvider(api.client).createWebhookEndpoint({ url: 'nope', eventTypes: ['admin.user.'] }),
    ).rejects.toMatchObject({ status: 400, message: 'Invalid webhook URL', body: refusal });
  });
});

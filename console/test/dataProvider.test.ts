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

  it('q searches the email when it holds an @, else the name, with contains', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [], total: 0 } } });
    const dp = makeDataProvider(api.client);
    await dp.getList('users', { ...list, filter: { q: ' ada@ex ' } });
    expect(api.last().query).toMatchObject({ searchValue: 'ada@ex', searchField: 'email', searchOperator: 'contains' });
    await dp.getList('users', { ...list, filter: { q: 'Ada' } });
    expect(api.last().query).toMatchObject({ searchValue: 'Ada', searchField: 'name', searchOperator: 'contains' });
  });

  it('filters role, banned and emailVerified become filterField/filterValue with eq', async () => {
    const api = fakeApi({ 'GET /admin/list-users': { body: { users: [], total: 0 } } });
    const dp = makeDataProvider(api.client);
    await dp.getList('users', { ...list, filter: { role: 'admin' } });
    expect(api.last().query).toMatchObject({ filterField: 'role', filterValue: 'admin', filterOperator: 'eq' });
    await dp.getList('users', { ...list, filter: { banned: true } });
    expect(api.last().query).toMatchObject({ filterField: 'banned', filterValue: 'true', filterOperator: 'eq' });
    await dp.getList('users', { ...list, filter: { emailVerified: false } });
    expect(api.last().query).toMatchObject({ filterField: 'emailVerified', filterValue: 'false' });
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
      [() => dp.listUserSessions('u1'), '/admin/list-user-sessions', { userId: 'u1' }],
      [() => dp.revokeUserSession('tok1'), '/admin/revoke-user-session', { sessionToken: 'tok1' }],
      [() => dp.revokeUserSessions('u1'), '/admin/revoke-user-sessions', { userId: 'u1' }],
    ];
    for (const [call, path, body] of calls) {
      await call();
      expect(api.last()).toMatchObject({ method: 'POST', path, credentials: 'include' });
      expect(api.last().body).toEqual(body);
    }
    expect(await dp.listUserSessions('u1')).toEqual([aSession()]);
    expect((await dp.banUser('u1')).banned).toBe(true);
  });
});

describe('dataProvider organizations', () => {
  it('getList pages admin/list-organizations; getOne reads get-full-organization', async () => {
    const org = { id: 'o1', name: 'Acme', slug: 'acme', logo: null, metadata: null, createdAt: '2026-01-01T00:00:00Z' };
    const api = fakeApi({
      'GET /admin/list-organizations': {
        body: { organizations: [{ ...org, memberCount: 3 }], total: 1, limit: 5, offset: 5 },
      },
      'GET /organization/get-full-organization': { body: { ...org, members: [], invitations: [] } },
    });
    const dp = makeDataProvider(api.client);
    const page = await dp.getList('organizations', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(api.last()).toMatchObject({ path: '/admin/list-organizations', query: { limit: '5', offset: '5' } });
    expect(page).toEqual({ data: [{ ...org, memberCount: 3 }], total: 1 });
    expect((await dp.getOne('organizations', { id: 'o1' })).data.name).toBe('Acme');
    expect(api.last()).toMatchObject({ path: '/organization/get-full-organization', query: { organizationId: 'o1' } });
  });

  it('getOne for an organization the admin is not in falls back to the admin list, members null', async () => {
    const org = { id: 'o2', name: 'Other', slug: 'other', logo: null, metadata: null, createdAt: 'x', memberCount: 2 };
    const api = fakeApi({
      'GET /organization/get-full-organization': {
        status: 403,
        body: {
          code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
          message: 'You are not a member of this organization',
        },
      },
      'GET /admin/list-organizations': { body: { organizations: [org], total: 1, limit: 1000, offset: 0 } },
    });
    const { data } = await makeDataProvider(api.client).getOne('organizations', { id: 'o2' });
    expect(data).toEqual({ ...org, members: null });
    expect(api.last()).toMatchObject({ path: '/admin/list-organizations', query: { limit: '1000', offset: '0' } });
  });

  it('refuses methods a resource does not offer', async () => {
    const dp = makeDataProvider(fakeApi().client);
    await expect(dp.create('organizations', { data: {} })).rejects.toThrow('create on organizations is not supported');
  });
});

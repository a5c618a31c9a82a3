import { describe, expect, it } from 'vitest';
import { canAccessWithRole, isAdminRole } from '../src/providers/access';
import { makeAuthProvider, NOT_ADMIN, SecondFactorNeeded } from '../src/providers/authProvider';
import { aSession, aUser, fakeApi } from './fakeFetch';

const sessionOf = (role: string, impersonatedBy: string | null = null) => ({
  body: { session: aSession({ impersonatedBy }), user: aUser({ role }) },
});

describe('authProvider', () => {
  it('login posts sign-in/email and keeps an admin signed in', async () => {
    const api = fakeApi({
      'POST /sign-in/email': { body: { redirect: false, token: 't', user: aUser({ role: 'user,admin' }) } },
      'GET /get-session': sessionOf('user,admin'),
    });
    await makeAuthProvider(api.client).login({ username: 'ada@example.com', password: 'secret-pw' });
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/sign-in/email',
      body: { email: 'ada@example.com', password: 'secret-pw' },
      credentials: 'include',
    });
    expect(api.requests.map((r) => r.path)).not.toContain('/sign-out');
  });

  it('login of a non-admin signs out again and refuses with the not-admin message', async () => {
    const api = fakeApi({
      'POST /sign-in/email': { body: { redirect: false, token: 't', user: aUser({ role: 'user' }) } },
    });
    await expect(makeAuthProvider(api.client).login({ username: 'a@b.co', password: 'pw' })).rejects.toThrow(NOT_ADMIN);
    expect(api.last()).toMatchObject({ method: 'POST', path: '/sign-out' });
  });

  it('login of an account with a second factor rejects with SecondFactorNeeded and makes no session call', async () => {
    const api = fakeApi({
      'POST /sign-in/email': { body: { twoFactorRedirect: true, twoFactorMethods: ['totp'] } },
    });
    const error = await makeAuthProvider(api.client)
      .login({ email: 'ada@example.com', password: 'secret-pw' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(SecondFactorNeeded);
    expect(error.methods).toEqual(['totp']);
    expect(api.requests.map((r) => r.path)).toEqual(['/sign-in/email']);
  });

  it('the code step posts verify-totp or verify-backup-code (trustDevice as asked) and keeps an admin signed in', async () => {
    const api = fakeApi({
      'POST /two-factor/verify-totp': { body: { token: 't', user: aUser({ role: 'admin' }) } },
      'POST /two-factor/verify-backup-code': { body: { token: 't', user: aUser({ role: 'admin' }) } },
      'GET /get-session': sessionOf('admin'),
    });
    const auth = makeAuthProvider(api.client);
    await auth.login({ secondFactor: 'totp', code: ' 123 456 ', trustDevice: true });
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/two-factor/verify-totp',
      body: { code: '123456', trustDevice: true },
      credentials: 'include',
    });
    expect(api.last()).toMatchObject({ method: 'GET', path: '/get-session' });
    await auth.login({ secondFactor: 'backup-code', code: 'abcde-12345' });
    expect(api.requests[2]).toMatchObject({
      path: '/two-factor/verify-backup-code',
      body: { code: 'abcde-12345', trustDevice: false },
    });
    expect(api.requests.map((r) => r.path)).not.toContain('/sign-out');
  });

  it('the code step of a non-admin signs out again and refuses with the not-admin message', async () => {
    const api = fakeApi({
      'POST /two-factor/verify-totp': { body: { token: 't', user: aUser({ role: 'user' }) } },
    });
    await expect(makeAuthProvider(api.client).login({ secondFactor: 'totp', code: '123456' })).rejects.toThrow(
      NOT_ADMIN,
    );
    expect(api.last()).toMatchObject({ method: 'POST', path: '/sign-out' });
  });

  it('a wrong code rejects with the catalogue message and its code', async () => {
    const api = fakeApi({
      'POST /two-factor/verify-totp': { status: 401, body: { code: 'INVALID_CODE', message: 'Invalid code' } },
    });
    const error = await makeAuthProvider(api.client)
      .login({ secondFactor: 'totp', code: '000000' })
      .catch((e) => e);
    expect([error.message, error.status, error.body.code]).toEqual(['Invalid code', 401, 'INVALID_CODE']);
    expect(api.requests).toHaveLength(1);
  });

  it('login failure surfaces the catalogue message', async () => {
    const api = fakeApi({
      'POST /sign-in/email': {
        status: 403,
        body: { code: 'BANNED_USER', message: 'You have been banned from this application' },
      },
    });
    await expect(makeAuthProvider(api.client).login({ username: 'a@b.co', password: 'pw' })).rejects.toThrow(
      'You have been banned from this application',
    );
  });

  it('checkAuth: no session → rejected silently; non-admin → not-admin; admin or impersonation → ok', async () => {
    let reply: { body: unknown } = { body: null };
    const api = fakeApi({ 'GET /get-session': () => reply });
    const auth = makeAuthProvider(api.client);
    await expect(auth.checkAuth({})).rejects.toEqual({ message: false });
    reply = sessionOf('user');
    await expect(auth.checkAuth({})).rejects.toThrow(NOT_ADMIN);
    reply = sessionOf('admin');
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    reply = sessionOf('user', 'admin-id');
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    expect(api.last()).toMatchObject({ method: 'GET', path: '/get-session' });
  });

  it('logout posts sign-out; getIdentity names the user, the impersonation and this session', async () => {
    const api = fakeApi({ 'GET /get-session': sessionOf('user', 'admin-id') });
    const auth = makeAuthProvider(api.client);
    expect(await auth.getIdentity?.()).toMatchObject({
      id: 'u1',
      fullName: 'Ada',
      impersonatedBy: 'admin-id',
      sessionId: 's1',
      sessionExpiresAt: '2026-02-01T00:00:00.000Z',
    });
    await auth.logout({});
    expect(api.last()).toMatchObject({ method: 'POST', path: '/sign-out' });
  });

  it('checkError signs out on 401 only', async () => {
    const auth = makeAuthProvider(fakeApi().client);
    await expect(auth.checkError({ status: 401 })).rejects.toThrow();
    await expect(auth.checkError({ status: 403 })).resolves.toBeUndefined();
  });

  it('canAccess uses the admin role table; an impersonation session gets nothing', async () => {
    let reply = sessionOf('admin');
    const api = fakeApi({ 'GET /get-session': () => reply });
    const auth = makeAuthProvider(api.client);
    expect(await auth.canAccess?.({ resource: 'users', action: 'list' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'organizations', action: 'show' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'organizations', action: 'delete' })).toBe(false);
    reply = sessionOf('admin', 'other-admin');
    await auth.checkAuth({});
    expect(await auth.canAccess?.({ resource: 'users', action: 'list' })).toBe(false);
  });
});

describe('access (the service module, reused)', () => {
  it('maps screens and buttons to admin statements', () => {
    expect(canAccessWithRole('admin', 'users', 'ban')).toBe(true);
    expect(canAccessWithRole('user, admin', 'users', 'impersonate')).toBe(true);
    expect(canAccessWithRole('user', 'users', 'list')).toBe(false);
    expect(canAccessWithRole('admin', 'users', 'fly')).toBe(false);
    expect(canAccessWithRole('admin', 'organizations', 'create')).toBe(true);
    expect(canAccessWithRole('user', 'organizations', 'manage')).toBe(false);
    expect(canAccessWithRole(null, 'users', 'list')).toBe(false);
    // The dashboard's figures need what admin/stats needs: user list.
    expect(canAccessWithRole('admin', 'dashboard', 'stats')).toBe(true);
    expect(canAccessWithRole('user', 'dashboard', 'stats')).toBe(false);
  });

  it('isAdminRole reads comma-separated roles', () => {
    expect(isAdminRole('user , admin')).toBe(true);
    expect(isAdminRole('user')).toBe(false);
    expect(isAdminRole('')).toBe(false);
  });
});

import { createAuthClient } from 'better-auth/client';
import { adminClient } from 'better-auth/client/plugins';
import { listenOnLoopback, startTestApp, type TestApp } from '../setup/app';
import { browserFetch } from '../setup/browser-client';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';

/** The admin flows through the published better-auth client with its admin plugin, over real HTTP. */
let t: TestApp;
let baseURL: string;

beforeAll(async () => {
  t = await startTestApp();
  baseURL = await listenOnLoopback(t.app);
});
afterAll(() => t?.close());

function browser() {
  const { jar, fetchOptions } = browserFetch();
  return { client: createAuthClient({ baseURL, fetchOptions, plugins: [adminClient()] }), jar };
}

async function signedUp(name: string) {
  const b = browser();
  const email = uniqueEmail(name);
  const { data, error } = await b.client.signUp.email({ name, email, password: PASSWORD });
  expect(error).toBeNull();
  return { ...b, email, id: data!.user.id };
}

describe('better-auth adminClient() over HTTP', () => {
  it('an admin creates, finds, updates, re-roles and lists users', async () => {
    const admin = await signedUp('Admin');
    await t.ctx.features.admin!.users.setRole(null, admin.id, 'admin');
    const email = uniqueEmail('made');
    const created = await admin.client.admin.createUser({ email, password: PASSWORD, name: 'Made', role: 'user' });
    expect(created.error).toBeNull();
    const id = created.data!.user.id;
    expect((await admin.client.admin.getUser({ query: { id } })).data?.email).toBe(email);
    const updated = await admin.client.admin.updateUser({ userId: id, data: { name: 'Renamed' } });
    expect(updated.data?.name).toBe('Renamed');
    expect((await admin.client.admin.setRole({ userId: id, role: 'admin' })).data?.user.role).toBe('admin');
    const listed = await admin.client.admin.listUsers({
      query: {
        searchValue: email.split('@')[0],
        searchField: 'email',
        searchOperator: 'contains',
        limit: 10,
        sortBy: 'createdAt',
        sortDirection: 'desc',
      },
    });
    expect(listed.error).toBeNull();
    expect(listed.data).toMatchObject({ total: 1, limit: 10, offset: 0 });
    expect((listed.data as { users: Array<{ id: string }> }).users[0].id).toBe(id);
    const perm = await admin.client.admin.hasPermission({ permissions: { user: ['ban'] } });
    expect(perm.data).toEqual({ error: null, success: true });
    expect((await admin.client.admin.setUserPassword({ userId: id, newPassword: 'another passphrase' })).data).toEqual({
      status: true,
    });
    expect((await admin.client.admin.removeUser({ userId: id })).data).toEqual({ success: true });
  });

  it('bans (sign-in refused with BANNED_USER), lists and revokes sessions, unbans', async () => {
    const admin = await signedUp('Admin');
    await t.ctx.features.admin!.users.setRole(null, admin.id, 'admin');
    const user = await signedUp('User');
    const sessions = await admin.client.admin.listUserSessions({ userId: user.id });
    expect(sessions.data?.sessions).toHaveLength(1);
    expect(
      (await admin.client.admin.banUser({ userId: user.id, banReason: 'spam', banExpiresIn: 3600 })).data?.user.banned,
    ).toBe(true);
    // The signed cache cookie may answer get-session for up to its max age (60 s, the documented trade-off);
    // past it, and on every route that changes something, the session is gone.
    expect((await user.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    const refused = await user.client.signIn.email({ email: user.email, password: PASSWORD });
    expect(refused.error).toMatchObject({ status: 403, code: 'BANNED_USER' });
    expect((await admin.client.admin.unbanUser({ userId: user.id })).data?.user.banned).toBe(false);
    expect((await user.client.signIn.email({ email: user.email, password: PASSWORD })).error).toBeNull();
    const again = await admin.client.admin.listUserSessions({ userId: user.id });
    const token = again.data!.sessions[0].token;
    expect((await admin.client.admin.revokeUserSession({ sessionToken: token })).data).toEqual({ success: true });
    expect((await admin.client.admin.revokeUserSessions({ userId: user.id })).data).toEqual({ success: true });
  });

  it('impersonates and stops, the client following the session cookies', async () => {
    const admin = await signedUp('Admin');
    await t.ctx.features.admin!.users.setRole(null, admin.id, 'admin');
    const user = await signedUp('Target');
    const started = await admin.client.admin.impersonateUser({ userId: user.id });
    expect(started.error).toBeNull();
    expect((started.data?.session as { impersonatedBy?: string } | undefined)?.impersonatedBy).toBe(admin.id);
    const during = await admin.client.getSession({ query: { disableCookieCache: true } });
    expect(during.data?.user.id).toBe(user.id);
    const refused = await admin.client.admin.listUsers({ query: {} });
    expect(refused.error).toMatchObject({ status: 403, code: 'NOT_ALLOWED_TO_LIST_USERS' });
    const stopped = await admin.client.admin.stopImpersonating();
    expect(stopped.error).toBeNull();
    const after = await admin.client.getSession({ query: { disableCookieCache: true } });
    expect(after.data?.user.id).toBe(admin.id);
  });

  it('a plain user gets the spec refusals', async () => {
    const user = await signedUp('Plain');
    const res = await user.client.admin.banUser({ userId: user.id });
    expect(res.error).toMatchObject({
      status: 403,
      code: 'NOT_ALLOWED_TO_BAN_USERS',
      message: 'You are not allowed to ban users',
    });
    expect((await user.client.admin.hasPermission({ permissions: { user: ['ban'] } })).data?.success).toBe(false);
  });
});

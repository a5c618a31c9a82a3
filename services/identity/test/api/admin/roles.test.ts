import { startTestApp, type TestApp } from '../../setup/app';
import { signUp, uniqueEmail } from '../../setup/fixtures';
import { adminGet, expectError, signUpAdmin } from './helpers';

/**
 * admin/list-roles: the role names an operator may pick (user roles, and organization roles when that feature is
 * on), with what each grants, read from the service's configuration; the console offers these instead of a text
 * field.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    admin: { roles: { support: { user: ['list', 'get'], session: ['list'] } } },
    organization: { roles: { auditor: { organization: [], member: [], invitation: [] } } },
  });
});
afterAll(() => t.close());

describe('admin/list-roles', () => {
  it('answers the configured user roles (defaults and custom) and organization roles, with their grants', async () => {
    const admin = await signUpAdmin(t);
    const res = await adminGet(t, 'list-roles', admin.jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const byName = Object.fromEntries(body.roles.map((r: { name: string }) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['admin', 'support', 'user']);
    expect(byName.support).toEqual({
      name: 'support',
      admin: false,
      permissions: { user: ['list', 'get'], session: ['list'] },
    });
    expect(byName.admin.admin).toBe(true);
    expect(byName.admin.permissions.user).toEqual(expect.arrayContaining(['ban', 'set-role', 'list']));
    expect(body.defaultRole).toBe('user');
    const orgRoles = Object.fromEntries(body.organizationRoles.map((r: { name: string }) => [r.name, r]));
    expect(Object.keys(orgRoles).sort()).toEqual(['admin', 'auditor', 'member', 'owner']);
    expect(orgRoles.owner.creator).toBe(true);
    expect(orgRoles.member.creator).toBe(false);
    expect(orgRoles.owner.permissions.organization).toEqual(expect.arrayContaining(['update', 'delete']));
  });

  it('is refused to a user who may not list users, and without a session', async () => {
    const plain = await signUp(t.app, { email: uniqueEmail('plain') });
    expectError(await adminGet(t, 'list-roles', plain.jar), 403, 'NOT_ALLOWED_TO_LIST_USERS');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/auth/admin/list-roles' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('answers a support role holding user:list too', async () => {
    const support = await signUpAdmin(t, 'support');
    expect((await adminGet(t, 'list-roles', support.jar)).statusCode).toBe(200);
  });
});

describe('admin/list-roles with organizations off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ features: { organization: false } });
  });
  afterAll(() => off.close());

  it('answers organizationRoles null', async () => {
    const admin = await signUpAdmin(off);
    const res = await adminGet(off, 'list-roles', admin.jar);
    expect([res.statusCode, res.json().organizationRoles]).toEqual([200, null]);
  });
});

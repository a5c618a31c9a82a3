import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, post, signUp } from '../../setup/fixtures';
import { adminGet, expectError, signUpAdmin } from './helpers';

/** the console's user page reads a user's linked accounts and organizations (admin only). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const GHOST = '00000000-0000-4000-8000-000000000000';

describe('admin list-user-accounts', () => {
  it('lists provider, account id, scopes and dates, never a token or the password hash', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    // A social login as the social feature stores it: tokens at rest must never come back.
    await t.ctx.sql.query(
      `INSERT INTO accounts (id, provider_id, account_id, user_id, access_token, refresh_token, id_token, scope)
       VALUES ($1, 'github', 'gh-42', $2, 'secret-access', 'secret-refresh', 'secret-id', 'read:user, user:email')`,
      [randomUUID(), u.userId],
    );
    const res = await adminGet(t, `list-user-accounts?userId=${u.userId}`, admin.jar);
    expect(res.statusCode).toBe(200);
    const accounts = res.json();
    expect(
      accounts.map((a: { providerId: string; accountId: string; scopes: string[] }) => [a.providerId, a.scopes]),
    ).toEqual([
      ['credential', []],
      ['github', ['read:user', 'user:email']],
    ]);
    expect(Object.keys(accounts[1]).sort()).toEqual([
      'accountId',
      'createdAt',
      'id',
      'providerId',
      'scopes',
      'updatedAt',
    ]);
    expect(res.body).not.toMatch(/secret-|argon2/);
  });

  it('an unknown user: FAILED_TO_FIND_USER; a plain user: refused', async () => {
    const admin = await signUpAdmin(t);
    const plain = await signUp(t.app);
    expectError(await adminGet(t, `list-user-accounts?userId=${GHOST}`, admin.jar), 404, 'FAILED_TO_FIND_USER');
    expectError(await adminGet(t, `list-user-accounts?userId=not-an-id`, admin.jar), 404, 'FAILED_TO_FIND_USER');
    expectError(
      await adminGet(t, `list-user-accounts?userId=${plain.userId}`, plain.jar),
      403,
      'NOT_ALLOWED_TO_GET_USER',
    );
    expectError(await get(t.app, `/admin/list-user-accounts?userId=${plain.userId}`), 401, 'UNAUTHORIZED');
  });
});

describe('admin list-user-organizations', () => {
  it("lists the user's organizations with their role", async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const slug = `ux-${randomUUID().slice(0, 8)}`;
    const created = await post(t.app, '/organization/create', { name: 'User Org', slug }, { jar: u.jar });
    expect(created.statusCode).toBe(200);
    const res = await adminGet(t, `list-user-organizations?userId=${u.userId}`, admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        organization: expect.objectContaining({ id: created.json().id, slug, name: 'User Org' }),
        memberId: created.json().members[0].id,
        role: 'owner',
        joinedAt: expect.any(String),
      },
    ]);
    expect((await adminGet(t, `list-user-organizations?userId=${admin.userId}`, admin.jar)).json()).toEqual([]);
  });

  it('refused to a plain user; unknown users are not found', async () => {
    const admin = await signUpAdmin(t);
    const plain = await signUp(t.app);
    expectError(
      await adminGet(t, `list-user-organizations?userId=${plain.userId}`, plain.jar),
      403,
      'NOT_ALLOWED_TO_GET_USER',
    );
    expectError(await adminGet(t, `list-user-organizations?userId=${GHOST}`, admin.jar), 404, 'FAILED_TO_FIND_USER');
  });
});

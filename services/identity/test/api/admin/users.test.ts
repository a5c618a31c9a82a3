import { startTestApp, type TestApp } from '../../setup/app';
import { PASSWORD, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminGet, adminPost, expectError, signUpAdmin, userRow } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('admin create-user', () => {
  it('creates a user with a password (default role user) who can sign in', async () => {
    const admin = await signUpAdmin(t);
    const email = uniqueEmail('Created').toUpperCase();
    const res = await adminPost(t, 'create-user', { email, password: PASSWORD, name: 'Made' }, admin.jar);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      name: 'Made',
      role: 'user',
      banned: false,
      emailVerified: false,
    });
    expect((await signIn(t.app, email.toLowerCase())).res.statusCode).toBe(200);
  });

  it('takes a role as text or list, and data name/image/language', async () => {
    const admin = await signUpAdmin(t);
    const body = {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'N',
      role: ['admin', 'user'],
      data: { image: 'https://i/x.png', language: 'FRA' },
    };
    const res = await adminPost(t, 'create-user', body, admin.jar);
    expect(res.json().user).toMatchObject({ role: 'admin,user', image: 'https://i/x.png', language: 'FRA' });
  });

  it.each([
    ['role', 'admin'],
    ['banned', true],
    ['emailVerified', true],
    ['id', '00000000-0000-4000-8000-000000000000'],
    ['email', 'x@y.z'],
    ['banReason', 'x'],
    ['banExpires', '2030-01-01T00:00:00Z'],
  ])('data cannot set %s (refused, no user made)', async (field, value) => {
    const admin = await signUpAdmin(t);
    const email = uniqueEmail();
    const res = await adminPost(
      t,
      'create-user',
      { email, password: PASSWORD, name: 'N', data: { [field]: value } },
      admin.jar,
    );
    expectError(res, 400, 'FIELD_NOT_ALLOWED');
    const rows = await t.ctx.sql.query('SELECT 1 FROM users WHERE email = $1', [email]);
    expect(rows).toHaveLength(0);
  });

  it('refuses an existing email, an unknown role and a short password; nothing is created', async () => {
    const admin = await signUpAdmin(t);
    const existing = await signUp(t.app);
    expectError(
      await adminPost(t, 'create-user', { email: existing.email, password: PASSWORD, name: 'N' }, admin.jar),
      422,
      'USER_ALREADY_EXISTS',
      'User already exists',
    );
    const email = uniqueEmail();
    expectError(
      await adminPost(t, 'create-user', { email, password: PASSWORD, name: 'N', role: 'superuser' }, admin.jar),
      400,
      'NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE',
    );
    expectError(
      await adminPost(t, 'create-user', { email, password: 'short', name: 'N' }, admin.jar),
      400,
      'PASSWORD_TOO_SHORT',
    );
    expect(await t.ctx.sql.query('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(0);
  });
});

describe('admin get-user, update-user, set-role', () => {
  it('gets a user by id; an unknown id is "Failed to find user"', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const res = await adminGet(t, `get-user?id=${u.userId}`, admin.jar);
    expect(res.json()).toMatchObject({ id: u.userId, email: u.email });
    expectError(
      await adminGet(t, 'get-user?id=00000000-0000-4000-8000-000000000000', admin.jar),
      404,
      'FAILED_TO_FIND_USER',
      'Failed to find user',
    );
    expectError(await adminGet(t, 'get-user?id=not-a-uuid', admin.jar), 404, 'FAILED_TO_FIND_USER');
  });

  it('updates name, image, language and role; never ban fields, email or emailVerified', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const res = await adminPost(
      t,
      'update-user',
      { userId: u.userId, data: { name: 'Renamed', language: 'POL', role: 'admin' } },
      admin.jar,
    );
    expect(res.json()).toMatchObject({ name: 'Renamed', language: 'POL', role: 'admin' });
    for (const data of [{ banned: true }, { emailVerified: true }, { email: 'a@b.c' }, { password: 'x' }]) {
      expectError(await adminPost(t, 'update-user', { userId: u.userId, data }, admin.jar), 400, 'FIELD_NOT_ALLOWED');
    }
    expectError(await adminPost(t, 'update-user', { userId: u.userId, data: {} }, admin.jar), 400, 'NO_DATA_TO_UPDATE');
    expect(await userRow(t, u.userId)).toMatchObject({ banned: false, email_verified: false, name: 'Renamed' });
  });

  it('sets a role (text, comma list or array) and it applies at once to the cached session', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const cached = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(cached.json().user.role).toBe('user');
    const res = await adminPost(t, 'set-role', { userId: u.userId, role: 'admin' }, admin.jar);
    expect(res.json().user.role).toBe('admin');
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(after.json().user.role).toBe('admin');
    expect(
      (await adminPost(t, 'set-role', { userId: u.userId, role: 'user, admin' }, admin.jar)).json().user.role,
    ).toBe('user,admin');
    expect((await adminPost(t, 'set-role', { userId: u.userId, role: ['user'] }, admin.jar)).json().user.role).toBe(
      'user',
    );
    expectError(
      await adminPost(t, 'set-role', { userId: u.userId, role: 'root' }, admin.jar),
      400,
      'NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE',
    );
    expectError(
      await adminPost(t, 'set-role', { userId: '00000000-0000-4000-8000-000000000000', role: 'admin' }, admin.jar),
      404,
      'FAILED_TO_FIND_USER',
    );
    expect((await userRow(t, u.userId)).role).toBe('user');
  });
});

describe('admin remove-user and set-user-password', () => {
  it('removes a user with their sessions; not yourself', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    expect((await adminPost(t, 'remove-user', { userId: u.userId }, admin.jar)).json()).toEqual({ success: true });
    expect(await userRow(t, u.userId)).toBeNull();
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(session.json()).toBeNull();
    expectError(await adminPost(t, 'remove-user', { userId: admin.userId }, admin.jar), 400, 'CANNOT_REMOVE_YOURSELF');
    expect(await userRow(t, admin.userId)).not.toBeNull();
    expectError(await adminPost(t, 'remove-user', { userId: u.userId }, admin.jar), 404, 'FAILED_TO_FIND_USER');
  });

  it("sets a user's password; length rules apply", async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const res = await adminPost(
      t,
      'set-user-password',
      { userId: u.userId, newPassword: 'a brand new passphrase' },
      admin.jar,
    );
    expect(res.json()).toEqual({ status: true });
    expect((await signIn(t.app, u.email, 'a brand new passphrase')).res.statusCode).toBe(200);
    expectError(
      await adminPost(t, 'set-user-password', { userId: u.userId, newPassword: 'short' }, admin.jar),
      400,
      'PASSWORD_TOO_SHORT',
    );
    expect((await signIn(t.app, u.email, 'a brand new passphrase')).res.statusCode).toBe(200);
    expectError(
      await adminPost(
        t,
        'set-user-password',
        { userId: '00000000-0000-4000-8000-000000000000', newPassword: 'long enough pass' },
        admin.jar,
      ),
      404,
      'FAILED_TO_FIND_USER',
    );
  });
});

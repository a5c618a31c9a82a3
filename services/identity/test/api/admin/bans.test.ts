import { startTestApp, type TestApp } from '../../setup/app';
import { post, sessionOf, signIn, signUp } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin, userRow } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BANNED = 'You have been banned from this application. Please contact support if you believe this is an error.';
const alive = async (token: string) => (await sessionOf(t.app, { bearer: token })) !== null;

describe('admin ban-user / unban-user', () => {
  it('bans with the default reason, ends every session at once (also cached ones), and sign-in is refused', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    expect(await alive(other.token!)).toBe(true); // now in the Redis cache
    const res = await adminPost(t, 'ban-user', { userId: u.userId }, admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ banned: true, banReason: 'No reason', banExpires: null });
    expect([await alive(u.token), await alive(other.token!)]).toEqual([false, false]);
    expect((await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId])).length).toBe(0);
    const again = await signIn(t.app, u.email);
    expectError(again.res, 403, 'BANNED_USER', BANNED);
    expect(again.jar.cookies.size).toBe(0);
    expect((await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId])).length).toBe(0);
  });

  it('a ban that commits between the ban check and the session insert still leaves no session', async () => {
    const u = await signUp(t.app);
    const hooks = t.ctx.features.session.sessions.hooks.beforeCreate;
    // Runs after the ban check passed: the ban lands in the window before the insert.
    const late = async () => {
      await t.ctx.sql.query('UPDATE users SET banned = true WHERE id = $1', [u.userId]);
      return undefined;
    };
    hooks.push(late);
    try {
      expectError((await signIn(t.app, u.email)).res, 403, 'BANNED_USER');
    } finally {
      hooks.splice(hooks.indexOf(late), 1);
    }
    const rows = await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId]);
    expect(rows).toHaveLength(1); // only the sign-up session, which a real ban would have ended
  });

  it('a wrong password on a banned account answers as for anyone (the ban is not revealed)', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    await adminPost(t, 'ban-user', { userId: u.userId, banReason: 'spam' }, admin.jar);
    expectError((await signIn(t.app, u.email, 'wrong password here')).res, 401, 'INVALID_EMAIL_OR_PASSWORD');
  });

  it('a ban with an expiry lapses at the next sign-in attempt after it (controlled clock)', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const res = await adminPost(
      t,
      'ban-user',
      { userId: u.userId, banReason: 'cool off', banExpiresIn: 3600 },
      admin.jar,
    );
    expect(Date.parse(res.json().user.banExpires)).toBe(t.clock.now() + 3600_000);
    t.clock.advance(3599);
    expectError((await signIn(t.app, u.email)).res, 403, 'BANNED_USER');
    expect(await userRow(t, u.userId)).toMatchObject({ banned: true, ban_reason: 'cool off' });
    t.clock.advance(2);
    const after = await signIn(t.app, u.email);
    expect(after.res.statusCode).toBe(200);
    expect(after.res.json().user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect(await userRow(t, u.userId)).toMatchObject({ banned: false, ban_reason: null, ban_expires: null });
  });

  it('an admin cannot ban themselves; an unknown user is "Failed to find user"', async () => {
    const admin = await signUpAdmin(t);
    expectError(
      await adminPost(t, 'ban-user', { userId: admin.userId }, admin.jar),
      400,
      'CANNOT_BAN_YOURSELF',
      'You cannot ban yourself',
    );
    expect((await userRow(t, admin.userId)).banned).toBe(false);
    expect(await alive(admin.token)).toBe(true);
    const ghost = '00000000-0000-4000-8000-000000000000';
    expectError(await adminPost(t, 'ban-user', { userId: ghost }, admin.jar), 404, 'FAILED_TO_FIND_USER');
    expectError(await adminPost(t, 'unban-user', { userId: ghost }, admin.jar), 404, 'FAILED_TO_FIND_USER');
  });

  it('banExpiresIn is a number of seconds (text refused)', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    expectError(
      await adminPost(t, 'ban-user', { userId: u.userId, banExpiresIn: '60' }, admin.jar),
      400,
      'VALIDATION_ERROR',
    );
    expect((await userRow(t, u.userId)).banned).toBe(false);
  });

  it('the configured default ban length applies when banExpiresIn is absent', async () => {
    const t2 = await startTestApp({ admin: { defaultBanExpiresInSec: 600, defaultBanReason: 'House rules' } });
    try {
      const admin = await signUpAdmin(t2);
      const u = await signUp(t2.app);
      const res = await post(t2.app, '/admin/ban-user', { userId: u.userId }, { jar: admin.jar });
      expect(res.json().user.banReason).toBe('House rules');
      expect(Date.parse(res.json().user.banExpires)).toBe(t2.clock.now() + 600_000);
    } finally {
      await t2.close();
    }
  });

  it('unban clears flag, reason and expiry; the user signs in again', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    await adminPost(t, 'ban-user', { userId: u.userId, banReason: 'x', banExpiresIn: 60 }, admin.jar);
    const res = await adminPost(t, 'unban-user', { userId: u.userId }, admin.jar);
    expect(res.json().user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });
});

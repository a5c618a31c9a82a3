import { Client } from 'pg';
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
    const fn = `hold_session_${u.userId.replace(/-/g, '_')}`;
    const lockKey = 734_201;
    // The sign-in's INSERT waits on an advisory lock this test holds (after the seam's ban check passed), while the
    // ban commits; then the insert goes on, in a transaction that started before the ban.
    await t.ctx.sql.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.user_id = '${u.userId}' THEN PERFORM pg_advisory_xact_lock(${lockKey}); END IF; RETURN NEW; END $$`);
    await t.ctx.sql.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    const holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
      const attempt = signIn(t.app, u.email);
      // until the sign-in's INSERT waits for the lock
      for (let i = 0; i < 200; i++) {
        const waiting = await holder.query(
          "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
          [lockKey],
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      await holder.query('UPDATE users SET banned = true WHERE id = $1', [u.userId]);
      await holder.query('COMMIT');
      expectError((await attempt).res, 403, 'BANNED_USER');
    } finally {
      await holder.end();
      await t.ctx.sql.query(`DROP TRIGGER ${fn} ON sessions`);
      await t.ctx.sql.query(`DROP FUNCTION ${fn}()`);
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

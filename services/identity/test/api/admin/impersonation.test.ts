import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, get, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ADMIN_COOKIE = 'better-auth.admin_session';

async function impersonating() {
  const admin = await signUpAdmin(t);
  const target = await signUp(t.app);
  const jar = admin.jar.clone();
  const res = await adminPost(t, 'impersonate-user', { userId: target.userId }, jar);
  return { admin, target, jar, res };
}

describe('admin impersonate-user / stop-impersonating', () => {
  it('makes a session of the target with impersonatedBy, lasting 3600 s, and keeps the admin token aside', async () => {
    const { admin, target, jar, res } = await impersonating();
    expect(res.statusCode).toBe(200);
    const { session, user } = res.json();
    expect(user.id).toBe(target.userId);
    expect(session).toMatchObject({ userId: target.userId, impersonatedBy: admin.userId });
    expect(Date.parse(session.expiresAt)).toBe(t.clock.now() + 3600_000);
    expect(jar.get(ADMIN_COOKIE)).toBeDefined();
    expect(jar.get(TOKEN_COOKIE)).not.toBe(admin.jar.get(TOKEN_COOKIE));
    const current = await sessionOf(t.app, { jar });
    expect(current.user.id).toBe(target.userId);
  });

  it("is hidden from the target user's own session list, visible to admins", async () => {
    const { target, admin, res } = await impersonating();
    const own = await get(t.app, '/list-sessions', { jar: target.jar });
    expect(own.json().map((s: { token: string }) => s.token)).toEqual([target.token]);
    const listed = await adminPost(t, 'list-user-sessions', { userId: target.userId }, admin.jar);
    expect(
      listed
        .json()
        .sessions.map((s: { token: string }) => s.token)
        .sort(),
    ).toEqual([target.token, res.json().session.token].sort());
  });

  it('is never renewed past its fixed lifetime (while a normal session is), then ends', async () => {
    const t2 = await startTestApp({ session: { updateAgeSec: 60 } });
    try {
      const admin = await signUpAdmin(t2);
      const target = await signUp(t2.app);
      const jar = admin.jar.clone();
      const res = await adminPost(t2, 'impersonate-user', { userId: target.userId }, jar);
      const expiresAt = res.json().session.expiresAt;
      t2.clock.advance(3000); // far past the update age
      const later = await sessionOf(t2.app, { jar }, '?disableCookieCache=true');
      expect(later.session.expiresAt).toBe(expiresAt);
      const normal = await sessionOf(t2.app, { bearer: target.token }, '?disableCookieCache=true');
      expect(Date.parse(normal.session.expiresAt)).toBe(t2.clock.now() + 7 * 24 * 3600_000); // control: renewed
      t2.clock.advance(601);
      expect(await sessionOf(t2.app, { jar }, '?disableCookieCache=true')).toBeNull();
    } finally {
      await t2.close();
    }
  });

  it('stop-impersonating deletes the impersonation session and restores the admin session cookie', async () => {
    const { admin, jar, res } = await impersonating();
    const stop = await adminPost(t, 'stop-impersonating', undefined, jar);
    expect(stop.statusCode).toBe(200);
    expect(stop.json().user.id).toBe(admin.userId);
    expect(stop.json().session.token).toBe(admin.token);
    expect(jar.get(ADMIN_COOKIE)).toBeUndefined();
    expect((await sessionOf(t.app, { jar })).user.id).toBe(admin.userId);
    expect(await sessionOf(t.app, { bearer: res.json().session.token })).toBeNull();
  });

  it('stop-impersonating: not impersonating, and a missing or foreign admin session, are refused', async () => {
    const plain = await signUp(t.app);
    expectError(
      await adminPost(t, 'stop-impersonating', undefined, plain.jar),
      400,
      'NOT_IMPERSONATING',
      'You are not impersonating anyone',
    );
    const { jar } = await impersonating();
    const noAdmin = jar.clone();
    noAdmin.cookies.delete(ADMIN_COOKIE);
    expectError(
      await adminPost(t, 'stop-impersonating', undefined, noAdmin),
      400,
      'FAILED_TO_FIND_ADMIN_SESSION',
      'Failed to find admin session',
    );
    const other = await signUpAdmin(t);
    const foreign = jar.clone();
    const otherRes = await adminPost(
      t,
      'impersonate-user',
      { userId: (await signUp(t.app)).userId },
      other.jar.clone(),
    );
    foreign.cookies.set(
      ADMIN_COOKIE,
      (otherRes.headers['set-cookie'] as string[])
        .find((c) => c.startsWith(ADMIN_COOKIE))!
        .split(';')[0]
        .split('=')
        .slice(1)
        .join('='),
    );
    expectError(await adminPost(t, 'stop-impersonating', undefined, foreign), 400, 'FAILED_TO_FIND_ADMIN_SESSION');
    expect((await sessionOf(t.app, { jar })).session.impersonatedBy).not.toBeNull(); // still impersonating
  });

  it('admins cannot impersonate admins unless configured', async () => {
    const admin = await signUpAdmin(t);
    const other = await signUpAdmin(t);
    const res = await adminPost(t, 'impersonate-user', { userId: other.userId }, admin.jar.clone());
    expectError(res, 403, 'CANNOT_IMPERSONATE_ADMINS');
    expect(await t.ctx.sql.query('SELECT 1 FROM sessions WHERE impersonated_by = $1', [admin.userId])).toHaveLength(0);
    const t2 = await startTestApp({ admin: { allowImpersonatingAdmins: true, impersonationSessionDurationSec: 600 } });
    try {
      const a = await signUpAdmin(t2);
      const b = await signUpAdmin(t2);
      const ok = await adminPost(t2, 'impersonate-user', { userId: b.userId }, a.jar.clone());
      expect(ok.statusCode).toBe(200);
      expect(Date.parse(ok.json().session.expiresAt)).toBe(t2.clock.now() + 600_000);
    } finally {
      await t2.close();
    }
  });

  it('an unknown user is "Failed to find user"', async () => {
    const admin = await signUpAdmin(t);
    const jar = new CookieJar();
    for (const [k, v] of admin.jar.cookies) jar.cookies.set(k, v);
    expectError(
      await adminPost(t, 'impersonate-user', { userId: '00000000-0000-4000-8000-000000000000' }, jar),
      404,
      'FAILED_TO_FIND_USER',
    );
    expect(jar.get(TOKEN_COOKIE)).toBe(admin.jar.get(TOKEN_COOKIE));
  });
});

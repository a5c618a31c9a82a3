import type { TestApp } from '../../setup/app';
import { CookieJar, get, PASSWORD, post, sessionOf, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { adminGet, adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { codeAt, count, enrolledUser, eventsOf, pendingSignIn } from './helpers';

/** An operator sees a user's second factor and resets it (docs/two-factor.md "For operators"). */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const app = () => t as TestApp;
const factorRows = async (userId: string) => ({
  twoFactors: await count(app(), 'two_factors WHERE user_id = $1', [userId]),
  devices: await count(app(), 'two_factor_trusted_devices WHERE user_id = $1', [userId]),
  challenges: await count(app(), 'two_factor_challenges WHERE user_id = $1', [userId]),
});

/** A user enrolled, with a trusted device and an open pending sign-in. */
async function userWithEverything() {
  const u = await enrolledUser(app(), { language: 'GERMAN' });
  const device = new CookieJar();
  await pendingSignIn(app(), u.email, {}, device);
  await post(
    t.app,
    '/two-factor/verify-totp',
    { code: await codeAt(app(), u.secret), trustDevice: true },
    { jar: device },
  );
  await pendingSignIn(app(), u.email);
  expect(await factorRows(u.userId)).toEqual({ twoFactors: 1, devices: 1, challenges: 1 });
  return { ...u, device };
}

describe('admin answers show twoFactorEnabled', () => {
  it('get-user and list-users', async () => {
    const admin = await signUpAdmin(app());
    const u = await enrolledUser(app());
    const plain = await signUp(t.app);
    expect((await adminGet(app(), `get-user?id=${u.userId}`, admin.jar)).json().twoFactorEnabled).toBe(true);
    expect((await adminGet(app(), `get-user?id=${plain.userId}`, admin.jar)).json().twoFactorEnabled).toBe(false);
    const list = await adminGet(
      app(),
      `list-users?searchField=email&searchValue=${encodeURIComponent(u.email)}`,
      admin.jar,
    );
    expect(list.json().users.map((x: { twoFactorEnabled: boolean }) => x.twoFactorEnabled)).toEqual([true]);
  });
});

describe('POST /admin/reset-two-factor', () => {
  it('removes secret, backup codes, pending sign-ins and trusted devices; records the event; mails the user', async () => {
    const admin = await signUpAdmin(app());
    const u = await userWithEverything();
    const res = await adminPost(app(), 'reset-two-factor', { userId: u.userId }, admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: u.userId, twoFactorEnabled: false });
    expect(await factorRows(u.userId)).toEqual({ twoFactors: 0, devices: 0, challenges: 0 });
    // the user's own session sees it at once (cache refreshed), and the password alone signs in again
    expect((await sessionOf(t.app, { bearer: u.token })).user.twoFactorEnabled).toBe(false);
    const signIn = await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().token).toEqual(expect.any(String));
    const events = await t.ctx.sql.query<{ actor_type: string; actor_id: string; details: object }>(
      `SELECT actor_type, actor_id, details FROM audit_events WHERE target_id = $1 AND type = 'admin.user.two_factor_reset'`,
      [u.userId],
    );
    expect(events).toEqual([
      { actor_type: 'user', actor_id: admin.userId, details: { wasEnabled: true, passkeysRemoved: 0 } },
    ]);
    const mail = await t.mailTo(u.email, (m) => m.subject.includes('zurückgesetzt'));
    expect(mail.subject).toBe('Ein Administrator hat Ihre Zwei-Faktor-Authentifizierung zurückgesetzt');
    expect(mail.text).not.toContain(u.secret);
  });

  it('refuses bad input with catalogue errors and changes nothing', async () => {
    const admin = await signUpAdmin(app());
    const plainUser = await signUp(t.app);
    const u = await enrolledUser(app());
    const cases: Array<[CookieJar, unknown, number, string]> = [
      [plainUser.jar, { userId: u.userId }, 403, 'NOT_ALLOWED_TO_RESET_USERS_TWO_FACTOR'],
      [admin.jar, {}, 400, 'VALIDATION_ERROR'],
      [admin.jar, { userId: 1 }, 400, 'VALIDATION_ERROR'],
      [admin.jar, { userId: u.userId, extra: 1 }, 400, 'FIELD_NOT_ALLOWED'],
      [admin.jar, { userId: 'no-such-user' }, 404, 'FAILED_TO_FIND_USER'],
      [admin.jar, { userId: admin.userId }, 400, 'CANNOT_RESET_YOUR_OWN_TWO_FACTOR'],
      [admin.jar, { userId: plainUser.userId }, 400, 'TWO_FACTOR_NOT_ENABLED'],
    ];
    for (const [jar, body, status, code] of cases) {
      const res = await adminPost(app(), 'reset-two-factor', body, jar);
      expect([JSON.stringify(body), res.statusCode, res.json().code]).toEqual([JSON.stringify(body), status, code]);
    }
    const anonymous = await post(t.app, '/admin/reset-two-factor', { userId: u.userId });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    expect(await factorRows(u.userId)).toMatchObject({ twoFactors: 1 });
    expect(await eventsOf(app(), u.userId, 'admin.user.two_factor_reset')).toEqual([]);
    expect((await get(t.app, `/admin/get-user?id=${u.userId}`, { jar: admin.jar })).json().twoFactorEnabled).toBe(true);
  });

  it('an impersonation session cannot reset', async () => {
    const admin = await signUpAdmin(app());
    const other = await signUp(t.app);
    const u = await enrolledUser(app());
    const jar = admin.jar.clone();
    const imp = await adminPost(app(), 'impersonate-user', { userId: other.userId }, jar);
    expect(imp.statusCode).toBe(200);
    const res = await adminPost(app(), 'reset-two-factor', { userId: u.userId }, jar);
    expectError(res, 403, 'NOT_ALLOWED_TO_RESET_USERS_TWO_FACTOR');
    expect(await factorRows(u.userId)).toMatchObject({ twoFactors: 1 });
  });
});

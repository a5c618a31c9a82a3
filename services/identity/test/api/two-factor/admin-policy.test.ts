import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, sessionOf, signUp } from '../../setup/fixtures';
import { adminGet, adminPost, signUpAdmin } from '../admin/helpers';
import { codeAt, secretOf } from './helpers';

/** The admin policy, TWO_FACTOR_REQUIRED_FOR_ADMINS (docs/two-factor.md "Policies"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ twoFactor: { requiredForAdmins: true } });
});
afterAll(() => t.close());

const REQUIRED = { code: 'TWO_FACTOR_REQUIRED', status: 403 };
const refusal = (res: { statusCode: number; json(): { code: string } }) => ({
  code: res.json().code,
  status: res.statusCode,
});

/** Every kind of admin route: reads, writes, the audit trail, webhooks, has-permission, impersonation. */
async function adminCalls(jar: Parameters<typeof adminGet>[2], targetId: string) {
  return {
    listUsers: await adminGet(t, 'list-users', jar),
    getUser: await adminGet(t, `get-user?id=${targetId}`, jar),
    stats: await adminGet(t, 'stats', jar),
    listEvents: await adminGet(t, 'list-events', jar),
    listWebhooks: await adminGet(t, 'list-webhook-endpoints', jar),
    hasPermission: await adminPost(t, 'has-permission', { permissions: { user: ['list'] } }, jar),
    ban: await adminPost(t, 'ban-user', { userId: targetId }, jar),
    impersonate: await adminPost(t, 'impersonate-user', { userId: targetId }, jar.clone()),
  };
}

describe('TWO_FACTOR_REQUIRED_FOR_ADMINS on', () => {
  it('refuses every admin route to an admin without a second factor; get-session, enrolment and sign-out work', async () => {
    const admin = await signUpAdmin(t);
    const target = await signUp(t.app);
    const calls = await adminCalls(admin.jar, target.userId);
    for (const [name, res] of Object.entries(calls)) expect([name, refusal(res)]).toEqual([name, REQUIRED]);
    expect(calls.getUser.json().message).toContain('second factor');
    // nothing changed
    expect((await t.ctx.sql.query('SELECT banned FROM users WHERE id = $1', [target.userId]))[0].banned).toBe(false);
    // the way out stays open
    expect((await sessionOf(t.app, { jar: admin.jar }, '?disableCookieCache=true')).user).toMatchObject({
      role: 'admin',
      twoFactorEnabled: false,
    });
    const enabled = await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: admin.jar });
    expect(enabled.statusCode).toBe(200);
    const code = await codeAt(t, secretOf(enabled.json().totpURI));
    expect((await post(t.app, '/two-factor/verify-totp', { code }, { jar: admin.jar })).statusCode).toBe(200);
    // enrolled: the same session now passes (its cached user was refreshed)
    expect((await adminGet(t, 'list-users', admin.jar)).statusCode).toBe(200);
    expect((await adminGet(t, `get-user?id=${target.userId}`, admin.jar)).statusCode).toBe(200);
    expect((await post(t.app, '/sign-out', {}, { jar: admin.jar })).statusCode).toBe(200);
  });

  it('a user whose role grants no admin permission gets the usual refusal, not TWO_FACTOR_REQUIRED', async () => {
    const user = await signUp(t.app);
    const res = await adminGet(t, 'list-users', user.jar);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).not.toBe('TWO_FACTOR_REQUIRED');
    const check = await adminPost(t, 'has-permission', { permissions: { user: ['list'] } }, user.jar);
    expect([check.statusCode, check.json().success]).toEqual([200, false]);
  });

  it('an admin whose second factor an operator reset is refused again', async () => {
    const operator = await signUpAdmin(t);
    const other = await signUpAdmin(t);
    for (const u of [operator, other]) {
      const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar })).json();
      await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secretOf(totpURI)) }, { jar: u.jar });
    }
    t.clock.advance(30);
    expect((await adminGet(t, 'list-users', other.jar)).statusCode).toBe(200);
    expect((await adminPost(t, 'reset-two-factor', { userId: other.userId }, operator.jar)).statusCode).toBe(200);
    expect(refusal(await adminGet(t, 'list-users', other.jar))).toEqual(REQUIRED);
  });

  it('an impersonation session is held to the impersonated user, and admin routes refuse it as before', async () => {
    const admin = await signUpAdmin(t);
    const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: admin.jar })).json();
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secretOf(totpURI)) }, { jar: admin.jar });
    t.clock.advance(30);
    const target = await signUp(t.app);
    const jar = admin.jar.clone();
    expect((await adminPost(t, 'impersonate-user', { userId: target.userId }, jar)).statusCode).toBe(200);
    const res = await adminGet(t, 'list-users', jar);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).not.toBe('TWO_FACTOR_REQUIRED');
    expect((await adminPost(t, 'stop-impersonating', {}, jar)).statusCode).toBe(200);
    expect((await get(t.app, '/admin/list-users', { jar })).statusCode).toBe(200);
  });
});

describe('TWO_FACTOR_REQUIRED_FOR_ADMINS off (the default)', () => {
  it('an admin without a second factor acts as before', async () => {
    const off = await startTestApp();
    try {
      const admin = await signUpAdmin(off);
      expect(off.config.twoFactor.requiredForAdmins).toBe(false);
      expect((await adminGet(off, 'list-users', admin.jar)).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});

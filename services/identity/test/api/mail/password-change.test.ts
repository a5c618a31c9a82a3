import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { PASSWORD, post, sessionOf, signIn, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnopqrstuvwxyz';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t.close());

const NEW = 'another long passphrase';

describe('POST /change-password', () => {
  it('refuses a wrong current password and bad lengths; nothing changes', async () => {
    const u = await signUp(t.app);
    const wrong = await post(
      t.app,
      '/change-password',
      { currentPassword: 'nope nope nope', newPassword: NEW },
      { jar: u.jar },
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { code: 'INVALID_PASSWORD', message: 'Invalid password' }]);
    const short = await post(
      t.app,
      '/change-password',
      { currentPassword: PASSWORD, newPassword: 'x' },
      { jar: u.jar },
    );
    expect(short.json().code).toBe('PASSWORD_TOO_SHORT');
    const unauth = await post(t.app, '/change-password', { currentPassword: PASSWORD, newPassword: NEW });
    expect(unauth.statusCode).toBe(401);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });

  it('changes the password and keeps sessions unless revokeOtherSessions, which issues a new token', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    const kept = await post(t.app, '/change-password', { currentPassword: PASSWORD, newPassword: NEW }, { jar: u.jar });
    expect(kept.json()).toMatchObject({ token: null, user: { id: u.userId } });
    expect(await sessionOf(t.app, { bearer: other.token })).not.toBeNull();
    const revoked = await post(
      t.app,
      '/change-password',
      { currentPassword: NEW, newPassword: PASSWORD, revokeOtherSessions: true },
      { jar: u.jar },
    );
    const token = revoked.json().token as string;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await sessionOf(t.app, { bearer: other.token })).toBeNull();
    expect(await sessionOf(t.app, { bearer: u.token })).toBeNull(); // the old current token is gone too
    expect((await sessionOf(t.app, { jar: u.jar })).session.token).toBe(token);
    expect(u.jar.get(TOKEN_COOKIE)).toBeDefined();
  });
});

describe('POST /set-password (server only)', () => {
  /** A user with no credential account (as after a social sign-in) and a session token for them. */
  async function passwordless(): Promise<{ userId: string; email: string; token: string }> {
    const u = await signUp(t.app);
    await t.ctx.sql.query("DELETE FROM accounts WHERE user_id = $1 AND provider_id = 'credential'", [u.userId]);
    return { userId: u.userId, email: u.email, token: u.token };
  }
  const server = (token: string, key = SERVICE_KEY) => ({
    origin: null,
    bearer: token,
    headers: { 'x-api-key': key },
  });

  it('refuses browsers and callers without the service credential; nothing is created', async () => {
    const u = await passwordless();
    const browser = await post(
      t.app,
      '/set-password',
      { newPassword: NEW },
      { bearer: u.token, headers: { 'x-api-key': SERVICE_KEY } },
    );
    const noKey = await post(t.app, '/set-password', { newPassword: NEW }, { origin: null, bearer: u.token });
    const badKey = await post(t.app, '/set-password', { newPassword: NEW }, server(u.token, `${SERVICE_KEY}x`));
    for (const res of [browser, noKey, badKey]) expect([res.statusCode, res.json().code]).toEqual([403, 'SERVER_ONLY']);
    expect((await signIn(t.app, u.email, NEW)).res.statusCode).toBe(401);
  });

  it('sets a first password for the session user, and refuses a second one', async () => {
    const u = await passwordless();
    expect((await post(t.app, '/set-password', { newPassword: 'short' }, server(u.token))).json().code).toBe(
      'PASSWORD_TOO_SHORT',
    );
    expect((await post(t.app, '/set-password', { newPassword: NEW }, server(u.token))).json()).toEqual({
      status: true,
    });
    expect((await signIn(t.app, u.email, NEW)).res.statusCode).toBe(200);
    const again = await post(t.app, '/set-password', { newPassword: PASSWORD }, server(u.token));
    expect([again.statusCode, again.json().message]).toEqual([400, 'user already has a password']);
    const noSession = await post(t.app, '/set-password', { newPassword: NEW }, server(randomUUID().replace(/-/g, '')));
    expect(noSession.statusCode).toBe(401);
  });

  it('a userId in the body never lets one user act for another', async () => {
    const u = await passwordless();
    const victim = await passwordless();
    const res = await post(t.app, '/set-password', { newPassword: NEW, userId: victim.userId }, server(u.token));
    expect([res.statusCode, res.json().code]).toEqual([400, 'FIELD_NOT_ALLOWED']);
    expect((await signIn(t.app, victim.email, NEW)).res.statusCode).toBe(401);
  });
});

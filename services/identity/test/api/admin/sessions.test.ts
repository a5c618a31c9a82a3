import { startTestApp, type TestApp } from '../../setup/app';
import { sessionOf, signIn, signUp } from '../../setup/fixtures';
import { adminPost, signUpAdmin } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const alive = async (token: string) => (await sessionOf(t.app, { bearer: token })) !== null;

describe('admin session control', () => {
  it("lists a user's active sessions", async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    const res = await adminPost(t, 'list-user-sessions', { userId: u.userId }, admin.jar);
    expect(res.statusCode).toBe(200);
    const tokens = res
      .json()
      .sessions.map((s: { token: string }) => s.token)
      .sort();
    expect(tokens).toEqual([u.token, second.token].sort());
    expect(res.json().sessions[0].rememberMe).toBeUndefined();
    const none = await adminPost(t, 'list-user-sessions', { userId: 'nobody' }, admin.jar);
    expect(none.json()).toEqual({ sessions: [] });
  });

  it('revokes one session by token at once (also when cached)', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    expect(await alive(second.token!)).toBe(true);
    const res = await adminPost(t, 'revoke-user-session', { sessionToken: second.token }, admin.jar);
    expect(res.json()).toEqual({ success: true });
    expect([await alive(second.token!), await alive(u.token)]).toEqual([false, true]);
  });

  it('revokes every session of a user at once', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    expect(await alive(u.token)).toBe(true);
    expect((await adminPost(t, 'revoke-user-sessions', { userId: u.userId }, admin.jar)).json()).toEqual({
      success: true,
    });
    expect([await alive(u.token), await alive(second.token!), await alive(admin.token)]).toEqual([false, false, true]);
  });
});

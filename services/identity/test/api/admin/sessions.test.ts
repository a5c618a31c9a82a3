import { startTestApp, type TestApp } from '../../setup/app';
import { sessionOf, signIn, signUp } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin } from './helpers';

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

  it("lists without tokens when asked (the console never holds another user's token)", async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const res = await adminPost(t, 'list-user-sessions', { userId: u.userId, hideTokens: true }, admin.jar);
    expect(res.statusCode).toBe(200);
    const [listed] = res.json().sessions;
    expect([listed.token, listed.userId, typeof listed.id]).toEqual(['', u.userId, 'string']);
    expect(JSON.stringify(res.json())).not.toContain(u.token);
  });

  it('revokes one session by its id at once (also when cached); the other sessions stay', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    expect(await alive(second.token!)).toBe(true); // cached in Redis now
    const listed = (await adminPost(t, 'list-user-sessions', { userId: u.userId, hideTokens: true }, admin.jar)).json();
    const id = (await sessionOf(t.app, { bearer: second.token! }))!.session.id;
    expect(listed.sessions.map((s: { id: string }) => s.id)).toContain(id);
    const res = await adminPost(t, 'revoke-user-session', { sessionId: id }, admin.jar);
    expect(res.json()).toEqual({ success: true });
    expect([await alive(second.token!), await alive(u.token)]).toEqual([false, true]);
    // An unknown or malformed id changes nothing and answers as the token form does.
    for (const sessionId of ['00000000-0000-4000-8000-000000000000', 'not-an-id'])
      expect((await adminPost(t, 'revoke-user-session', { sessionId }, admin.jar)).json()).toEqual({ success: true });
    expect(await alive(u.token)).toBe(true);
  });

  it('refuses a revoke that names neither or both of token and id, changing nothing', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const id = (await sessionOf(t.app, { bearer: u.token }))!.session.id;
    expectError(await adminPost(t, 'revoke-user-session', {}, admin.jar), 400, 'VALIDATION_ERROR');
    expectError(
      await adminPost(t, 'revoke-user-session', { sessionId: id, sessionToken: u.token }, admin.jar),
      400,
      'VALIDATION_ERROR',
    );
    expect(await alive(u.token)).toBe(true);
  });
});

import { startTestApp, type TestApp } from '../../setup/app';
import { get, post, sessionOf, signIn, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const alive = async (token: string) => (await sessionOf(t.app, { bearer: token })) !== null;

describe('session control', () => {
  it("lists only the user's own active sessions, without internal fields", async () => {
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    await signUp(t.app); // someone else
    const res = await get(t.app, '/list-sessions', { jar: u.jar });
    expect(res.statusCode).toBe(200);
    const tokens = res
      .json()
      .map((s: { token: string }) => s.token)
      .sort();
    expect(tokens).toEqual([u.token, second.token].sort());
    expect(res.json()[0].rememberMe).toBeUndefined();
    expect((await get(t.app, '/list-sessions')).statusCode).toBe(401);
  });

  it("refuses to revoke another user's session with 401 and leaves it alive", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const res = await post(t.app, '/revoke-session', { token: bob.token }, { jar: alice.jar });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    expect(await alive(bob.token)).toBe(true);
    expect(await alive(alice.token)).toBe(true);
  });

  it('revokes one own session by token, immediately', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    await sessionOf(t.app, { bearer: other.token! }); // cached in Redis
    const res = await post(t.app, '/revoke-session', { token: other.token }, { jar: u.jar });
    expect(res.json()).toEqual({ status: true });
    expect(await alive(other.token!)).toBe(false);
    expect(await alive(u.token)).toBe(true);
  });

  it('revoke-other-sessions keeps the current one; revoke-sessions ends all and clears cookies', async () => {
    const u = await signUp(t.app);
    const a = await signIn(t.app, u.email);
    const b = await signIn(t.app, u.email);
    expect((await post(t.app, '/revoke-other-sessions', undefined, { jar: u.jar })).json()).toEqual({ status: true });
    expect([await alive(u.token), await alive(a.token!), await alive(b.token!)]).toEqual([true, false, false]);
    const c = await signIn(t.app, u.email);
    expect((await post(t.app, '/revoke-sessions', undefined, { jar: u.jar })).json()).toEqual({ status: true });
    expect(u.jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect([await alive(u.token), await alive(c.token!)]).toEqual([false, false]);
  });

  it('sign-out ends the session and clears cookies; a reused token is refused on changing routes', async () => {
    const u = await signUp(t.app);
    const stolen = u.jar.clone();
    const res = await post(t.app, '/sign-out', undefined, { jar: u.jar });
    expect(res.json()).toEqual({ success: true });
    expect(u.jar.cookies.size).toBe(0);
    expect(await alive(u.token)).toBe(false);
    // The old cookies (cache cookie included) cannot change anything.
    const reuse = await post(t.app, '/update-user', { name: 'x' }, { jar: stolen });
    expect(reuse.statusCode).toBe(401);
    expect((await post(t.app, '/revoke-other-sessions', undefined, { jar: stolen })).statusCode).toBe(401);
  });

  it('requires a session for every revoke route', async () => {
    for (const url of ['/revoke-session', '/revoke-sessions', '/revoke-other-sessions']) {
      const res = await post(t.app, url, url === '/revoke-session' ? { token: 'abc' } : undefined);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('the periodic sweep deletes expired sessions nobody presents again', async () => {
    // Sessions made in the past, so they are expired at the real time that other test files (sharing this
    // database, running in parallel) also use: the sweep then removes only what truly expired.
    const back = t.config.session.absoluteLifetimeSec + 3600;
    t.clock.advance(-back);
    const u = await signUp(t.app);
    const live = await signUp(t.app);
    t.clock.advance(back);
    const fresh = await signIn(t.app, live.email);
    expect(await t.ctx.features.session.sessions.sweepExpired(1)).toBeGreaterThanOrEqual(2);
    const left = await t.ctx.sql.query<{ token: string }>('SELECT token FROM sessions WHERE user_id = ANY($1)', [
      [u.userId, live.userId],
    ]);
    expect(left.map((r) => r.token)).toEqual([fresh.token]);
  });
});

import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, post, sessionOf, signIn, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

/**
 * Defence in depth for bans (spec §4 Ban: banning removes all of the user's sessions): a session row that outlived a
 * ban never validates, on any path, and a lapsed timed ban is honoured. And the Redis cache of a session cannot
 * outlive a revocation even when the process dies between the commit and the cache eviction.
 */
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnopqrstuvwxyz';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t.close());

const serverSession = (token: string) => sessionOf(t.app, { bearer: token });
const banRow = (userId: string, expires: Date | null) =>
  t.ctx.sql.query('UPDATE users SET banned = true, ban_reason = $2, ban_expires = $3 WHERE id = $1', [
    userId,
    'by hand',
    expires,
  ]);
const cacheKeyOf = (token: string) =>
  `${t.config.redisPrefix}session:${createHash('sha256').update(token).digest('base64url')}`;

describe('a session of a banned user', () => {
  it('never validates (get-session by Bearer and by cookie, changing routes) and is deleted when presented', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    await banRow(u.userId, null); // a ban whose session deletion never happened
    expect(await serverSession(other.token!)).toBeNull();
    const res = await get(t.app, '/get-session?disableCookieCache=true', { jar: u.jar });
    expect(res.json()).toBeNull();
    expect(u.jar.get(TOKEN_COOKIE)).toBeUndefined(); // cookies cleared, as for an expired session
    expect((await post(t.app, '/update-user', { name: 'Still here' }, { bearer: u.token })).statusCode).toBe(401);
    const left = await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId]);
    expect(left).toHaveLength(0);
  });

  it('is inactive for introspection (service credential), whose lookups go through the Redis cache', async () => {
    const u = await signUp(t.app);
    await banRow(u.userId, new Date(t.clock.now() + 3600_000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/introspect',
      headers: { 'x-api-key': SERVICE_KEY },
      payload: { token: u.token },
    });
    expect(res.json()).toEqual({ active: false });
  });

  it('validates again once a timed ban has lapsed (controlled clock)', async () => {
    const u = await signUp(t.app);
    await banRow(u.userId, new Date(t.clock.now() - 1000));
    expect((await serverSession(u.token))?.user.id).toBe(u.userId);
    await banRow(u.userId, new Date(t.clock.now() + 60_000));
    expect(
      await t.ctx.features.session.sessions.resolve(u.token, { source: 'database', refresh: false }),
    ).toMatchObject({
      current: null,
    });
  });
});

describe('the Redis session cache and a crash between the commit and the eviction', () => {
  it('a session ended in a transaction that committed, whose eviction never ran, is not answered from Redis', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    for (let i = 0; i < 2; i++) expect(await serverSession(other.token!)).not.toBeNull(); // cached
    expect(await t.ctx.redis!.exists(cacheKeyOf(other.token!))).toBe(1);
    // The work of a ban or a user deletion up to its commit; the process "dies" before the returned eviction.
    await t.ctx.sql.transaction((tx) => t.ctx.features.session.sessions.endAllForUserIn(tx, u.userId));
    expect(await serverSession(other.token!)).toBeNull();
    expect(await serverSession(u.token)).toBeNull();
  });

  it('an active organization cleared in a committed transaction is answered at once, eviction or not', async () => {
    const u = await signUp(t.app);
    const org = await post(t.app, '/organization/create', { name: 'Cached', slug: `c-${u.userId}` }, { jar: u.jar });
    expect(org.statusCode).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await serverSession(u.token))?.session.activeOrganizationId).toBe(org.json().id);
    await t.ctx.sql.transaction((tx) =>
      t.ctx.features.session.sessions.clearActiveOrganizationIn(tx, org.json().id, u.userId),
    );
    expect((await serverSession(u.token))?.session.activeOrganizationId).toBeNull();
  });

  it('a fill that read PostgreSQL before a fence does not overwrite it (the revocation wins)', async () => {
    const key = `fence-test:${u32()}`;
    const store = t.ctx.store;
    await store.fence([key], 60);
    expect(await store.fill(key, 'stale', 60)).toBe(false);
    expect(await store.get(key)).toBeNull();
    expect(await store.getMany([key])).toEqual([null]);
    await store.del(key);
    expect(await store.fill(key, 'fresh', 60)).toBe(true);
    expect(await store.get(key)).toBe('fresh');
    await store.del(key);
  });
});

const u32 = () => Math.floor(Math.random() * 2 ** 32).toString(16);

import { createHash } from 'node:crypto';
import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, DATA_COOKIE, get, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

/** A revocation made by the test itself (as an operator's would be). */
const REVOKED = { type: 'admin.user.session_revoked', source: SYSTEM_SOURCE } as const;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const rowCount = async (token: string) =>
  (await t.ctx.sql.query('SELECT 1 FROM sessions WHERE token = $1', [token])).length;

describe('GET /get-session', () => {
  it('answers the session by cookie and by Bearer token, and null without either', async () => {
    const u = await signUp(t.app);
    const byCookie = await sessionOf(t.app, { jar: u.jar });
    expect(byCookie.user).toMatchObject({ id: u.userId, email: u.email, emailVerified: false });
    expect(byCookie.session).toMatchObject({ token: u.token, userId: u.userId });
    expect(byCookie.session.rememberMe).toBeUndefined();
    const byBearer = await sessionOf(t.app, { bearer: u.token });
    expect(byBearer.session.id).toBe(byCookie.session.id);
    const none = await get(t.app, '/get-session');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect(none.headers['cache-control']).toBe('no-store');
  });

  it('treats a forged or tampered token cookie as no session and clears the cookies', async () => {
    const u = await signUp(t.app);
    const forged = new CookieJar();
    forged.cookies.set(TOKEN_COOKIE, `${u.token}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
    const res = await get(t.app, '/get-session', { jar: forged });
    expect(res.json()).toBeNull();
    expect(forged.get(TOKEN_COOKIE)).toBeUndefined();
    const unsigned = new CookieJar();
    unsigned.cookies.set(TOKEN_COOKIE, u.token);
    expect(await sessionOf(t.app, { jar: unsigned })).toBeNull();
    expect(await sessionOf(t.app, { bearer: 'not-a-token!' })).toBeNull();
    expect(await sessionOf(t.app, { headers: { authorization: 'Basic abc' } })).toBeNull();
    expect(await sessionOf(t.app, { bearer: 'x'.repeat(600) })).toBeNull();
  });

  it('ignores a tampered session-cache cookie and answers from the database', async () => {
    const u = await signUp(t.app);
    // The genuine cookie is read first, so its decoding is remembered under its signature, which the forgery keeps.
    expect((await sessionOf(t.app, { jar: u.jar })).user.role).toBe('user');
    const jar = u.jar.clone();
    const data = jar.get(DATA_COOKIE)!;
    const [payload, sig] = [data.slice(0, data.lastIndexOf('.')), data.slice(data.lastIndexOf('.') + 1)];
    // `base64url("<exp>|<get-session body>").<HMAC>`: keep the signature, edit the body
    const text = Buffer.from(payload, 'base64url').toString();
    const bar = text.indexOf('|');
    const body = JSON.parse(text.slice(bar + 1));
    expect(body.user.id).toBe(u.userId);
    body.user.role = 'admin';
    body.user.name = 'Mallory';
    const forged = `${text.slice(0, bar)}|${JSON.stringify(body)}`;
    const tampered = `${Buffer.from(forged).toString('base64url')}.${sig}`;
    jar.cookies.set(DATA_COOKIE, tampered);
    const answer = await sessionOf(t.app, { jar });
    expect(answer.user.role).toBe('user');
    expect(answer.user.name).toBe('Test User');
    // answered from the database, not from the cookie: the tampered cookie is replaced by one the server signed
    expect(jar.get(DATA_COOKIE)).toBeDefined();
    expect(jar.get(DATA_COOKIE)).not.toBe(tampered);
  });

  it("never pairs a cache cookie with another user's token", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const jar = new CookieJar();
    jar.cookies.set(TOKEN_COOKIE, bob.jar.get(TOKEN_COOKIE)!);
    jar.cookies.set(DATA_COOKIE, alice.jar.get(DATA_COOKIE)!);
    const answer = await sessionOf(t.app, { jar });
    expect(answer.user.id).toBe(bob.userId);
  });

  it('serves the cookie cache within its max age; disableCookieCache asks for a fresh answer', async () => {
    const u = await signUp(t.app);
    const keep = u.jar.clone();
    expect((await post(t.app, '/sign-out', undefined, { jar: u.jar })).statusCode).toBe(200);
    // The browser that signed out lost its cookies; a copy of the old cookies is what the cache could serve.
    const cached = await sessionOf(t.app, { jar: keep.clone() });
    expect(cached?.session.token).toBe(u.token);
    expect(await sessionOf(t.app, { jar: keep.clone() }, '?disableCookieCache=true')).toBeNull();
    t.clock.advance(61);
    expect(await sessionOf(t.app, { jar: keep.clone() })).toBeNull();
  });

  it('revocation is immediate on the Redis path (Bearer) and survives a flushed Redis', async () => {
    const u = await signUp(t.app);
    expect((await sessionOf(t.app, { bearer: u.token })).session.token).toBe(u.token);
    const keys = await t.ctx.redis!.keys(`${t.config.redisPrefix}session:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((k) => k.includes(u.token))).toBe(false); // keys hold a hash, never the token
    await post(t.app, '/revoke-sessions', undefined, { bearer: u.token, origin: null });
    expect(await sessionOf(t.app, { bearer: u.token })).toBeNull();
    const other = await signUp(t.app);
    await sessionOf(t.app, { bearer: other.token });
    for (const key of await t.ctx.redis!.keys(`${t.config.redisPrefix}session:*`)) await t.ctx.redis!.del(key);
    expect((await sessionOf(t.app, { bearer: other.token })).user.id).toBe(other.userId);
  });

  it('deletes an expired session and clears its cookies', async () => {
    const u = await signUp(t.app);
    t.clock.advance(t.config.session.expiresInSec + 1);
    const jar = u.jar.clone();
    jar.cookies.delete(DATA_COOKIE);
    const res = await get(t.app, '/get-session', { jar });
    expect(res.json()).toBeNull();
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(await rowCount(u.token)).toBe(0);
  });

  it('renews a session older than the update age, capped by the absolute lifetime; disableRefresh does not', async () => {
    const u = await signUp(t.app);
    const before = (await sessionOf(t.app, { bearer: u.token })).session.expiresAt;
    t.clock.advance(t.config.session.updateAgeSec + 10);
    const untouched = await sessionOf(t.app, { bearer: u.token }, '?disableRefresh=true');
    expect(untouched.session.expiresAt).toBe(before);
    const jar = u.jar.clone();
    jar.cookies.delete(DATA_COOKIE);
    const renewed = await get(t.app, '/get-session', { jar });
    const after = renewed.json().session.expiresAt;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect(Number(jar.attributes.get(TOKEN_COOKIE)?.['max-age'])).toBeGreaterThan(t.config.session.expiresInSec - 5);
    const created = Date.parse(renewed.json().session.createdAt);
    const cap = created + t.config.session.absoluteLifetimeSec * 1000;
    for (let i = 0; i < 4; i++) {
      t.clock.advance(t.config.session.expiresInSec - 60); // each step renews: older than the update age
      expect(await sessionOf(t.app, { bearer: u.token })).not.toBeNull();
    }
    const capped = await sessionOf(t.app, { bearer: u.token });
    expect(Date.parse(capped.session.expiresAt)).toBe(cap);
    t.clock.advance((cap - t.clock.now()) / 1000 + 1);
    expect(await sessionOf(t.app, { bearer: u.token })).toBeNull();
  });
});

/** Users signed up one after another: the lookups are what run in parallel here, not the password hashing. */
async function signUps(n: number) {
  const users = [];
  for (let i = 0; i < n; i++) users.push(await signUp(t.app));
  return users;
}

describe('lookups under load', () => {
  it('answers concurrent lookups of distinct sessions with one query, each with its own session', async () => {
    const users = await signUps(8);
    const revoked = users.pop()!;
    await t.ctx.features.session.sessions.revoke(revoked.token, REVOKED);
    const prepared = jest.spyOn(t.ctx.sql, 'prepared');
    try {
      const tokens = [...users.map((u) => u.token), revoked.token, 'x'.repeat(32), users[0].token];
      const answers = await Promise.all(
        tokens.map((token) => t.ctx.features.session.sessions.resolve(token, { source: 'database', refresh: false })),
      );
      expect(answers.map((a) => a.current?.user.id ?? null)).toEqual([
        ...users.map((u) => u.userId),
        null,
        null,
        users[0].userId,
      ]);
      expect(answers.map((a) => a.current?.session.token ?? null)).toEqual([
        ...users.map((u) => u.token),
        null,
        null,
        users[0].token,
      ]);
      const lookups = prepared.mock.calls.filter(([name]) => name === 'sessions_with_user_by_tokens');
      // one query for the 10 lookups (9 distinct tokens); a PostgreSQL read does not fill Redis (no re-check)
      expect(lookups.map(([, , params]) => params)).toEqual([
        [[...users.map((u) => u.token), revoked.token, 'x'.repeat(32)]],
      ]);
    } finally {
      prepared.mockRestore();
    }
  });

  it('answers concurrent Redis cache reads with one MGET, each with its own session or none', async () => {
    expect(t.ctx.redis).toBeTruthy();
    const users = await signUps(6);
    for (const u of users) await t.ctx.features.session.sessions.resolve(u.token, { source: 'cache', refresh: false }); // cached
    const revoked = users.pop()!;
    await t.ctx.features.session.sessions.revoke(revoked.token, REVOKED);
    const mget = jest.spyOn(t.ctx.redis!, 'mget');
    try {
      const tokens = [...users.map((u) => u.token), revoked.token];
      const answers = await Promise.all(
        tokens.map((token) => t.ctx.features.session.sessions.resolve(token, { source: 'cache', refresh: false })),
      );
      expect(answers.map((a) => [a.from, a.current?.user.id ?? null])).toEqual([
        ...users.map((u) => ['redis', u.userId]),
        ['none', null],
      ]);
      expect(mget).toHaveBeenCalledTimes(1);
      expect((mget.mock.calls[0][0] as unknown as string[]).length).toBe(tokens.length);
    } finally {
      mget.mockRestore();
    }
  });

  it('a lookup made after a revocation never reuses a query sent before it', async () => {
    const u = await signUp(t.app);
    const before = t.ctx.features.session.sessions.resolve(u.token, { source: 'database', refresh: false });
    await t.ctx.features.session.sessions.revoke(u.token, REVOKED);
    const after = await t.ctx.features.session.sessions.resolve(u.token, { source: 'database', refresh: false });
    expect(after.current).toBeNull();
    await before; // sent before the revocation: either answer is allowed for it
  });
});

describe('Redis cache fill', () => {
  const cached = async (token: string) => {
    const key = `${t.config.redisPrefix}session:${createHash('sha256').update(token).digest('base64url')}`;
    return (await t.ctx.redis!.exists(key)) === 1;
  };

  it('a cache miss fills the entry; a deliberate PostgreSQL read (routes that change something) does not', async () => {
    const u = await signUp(t.app);
    await t.ctx.redis!.del(
      `${t.config.redisPrefix}session:${createHash('sha256').update(u.token).digest('base64url')}`,
    );
    await t.ctx.features.session.sessions.resolve(u.token, { source: 'database', refresh: false });
    expect(await cached(u.token)).toBe(false);
    const res = await post(t.app, '/update-user', { name: 'Still Me' }, { bearer: u.token });
    expect(res.statusCode).toBe(200);
    expect(await cached(u.token)).toBe(false);
    await t.ctx.features.session.sessions.resolve(u.token, { source: 'cache', refresh: false });
    expect(await cached(u.token)).toBe(true);
  });
});

describe('Redis cache fill races', () => {
  // A request reads PostgreSQL, then a revocation or profile update commits, then the request fills the cache:
  // the filled entry must not outlive the change.
  const raceAfterRead = (change: () => Promise<unknown>) => {
    const repo = (
      t.ctx.features.session.sessions as unknown as { repo: { findWithUser: (token: string) => Promise<unknown> } }
    ).repo;
    const original = repo.findWithUser.bind(repo);
    const spy = jest.spyOn(repo, 'findWithUser').mockImplementationOnce(async (token: string) => {
      const read = await original(token);
      await change();
      return read;
    });
    return spy;
  };

  it('never caches a session revoked between the database read and the cache write', async () => {
    const u = await signUp(t.app);
    const spy = raceAfterRead(() => t.ctx.features.session.sessions.revoke(u.token, REVOKED));
    await sessionOf(t.app, { bearer: u.token }); // this request may still answer with what it read
    spy.mockRestore();
    expect(await sessionOf(t.app, { bearer: u.token })).toBeNull();
  });

  it('never caches a user changed between the database read and the cache write', async () => {
    const u = await signUp(t.app);
    const spy = raceAfterRead(() =>
      t.ctx.features.account.accounts.updateProfile(u.userId, { name: 'Renamed' }, SYSTEM_SOURCE),
    );
    await sessionOf(t.app, { bearer: u.token });
    spy.mockRestore();
    expect((await sessionOf(t.app, { bearer: u.token })).user.name).toBe('Renamed');
  });
});

import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { post, type SignedUp, sessionOf, signIn, signUp } from '../../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';

/**
 * Faults (docs/operations.md): Redis stopped, hung or flushed under a running API. Sessions still validate from
 * PostgreSQL, and a session revoked while Redis was away stays revoked when Redis returns with its old entry.
 */
let proxy: TcpProxy;
let t: TestApp;
beforeAll(async () => {
  proxy = await startTcpProxy(Number(new URL(process.env.TEST_REDIS_URL!).port || 6379));
  t = await startTestApp({}, { REDIS_URL: `redis://127.0.0.1:${proxy.port}/0` });
});
afterAll(async () => {
  proxy.restore();
  await t?.close();
  await proxy?.close();
});
afterEach(() => proxy.restore());

const ready = async () => {
  for (let i = 0; i < 200 && t.ctx.redis?.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 25));
  expect(t.ctx.redis?.status).toBe('ready');
};
const cacheKeyOf = (token: string) =>
  `${t.config.redisPrefix}session:${createHash('sha256').update(token).digest('base64url')}`;
/** get-session's answer, asking the server (no cache cookie), by Bearer token. */
const serverSession = (token: string) => sessionOf(t.app, { bearer: token }, '?disableCookieCache=true');
const cachedInRedis = async (token: string) => {
  expect((await serverSession(token))?.session.token).toBe(token);
  expect((await serverSession(token))?.session.token).toBe(token); // the second answer came from Redis
};

describe.each([
  ['stopped', () => proxy.cut()],
  ['hung (accepts, never answers)', () => proxy.hang()],
])('Redis %s', (_, fault) => {
  let user: SignedUp;
  beforeEach(async () => {
    await ready();
    user = await signUp(t.app);
  });

  it('a live session still validates (PostgreSQL answers), in bounded time', async () => {
    const token = (await signIn(t.app, user.email)).token!;
    await cachedInRedis(token);
    fault();
    const started = Date.now();
    const answer = await serverSession(token);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer?.session.token).toBe(token);
    // Still ready (degraded, not down): Redis is reported, not required.
    const probe = await t.app.inject({ method: 'GET', url: '/api/auth/health/ready' });
    expect([probe.statusCode, probe.json().checks]).toEqual([
      200,
      { database: 'ok', migrations: 'ok', redis: 'failing' },
    ]);
  });

  it('a session revoked while Redis is away stays revoked when Redis comes back with its old entry', async () => {
    const token = (await signIn(t.app, user.email)).token!;
    await cachedInRedis(token);
    expect(await t.ctx.redis!.exists(cacheKeyOf(token))).toBe(1);
    fault();
    const out = await post(t.app, '/sign-out', undefined, { bearer: token });
    expect(out.statusCode).toBe(200);
    expect(await serverSession(token)).toBeNull();
    proxy.restore();
    await ready();
    for (let i = 0; i < 3; i++) expect(await serverSession(token)).toBeNull();
    expect(await t.ctx.redis!.exists(cacheKeyOf(token))).toBe(0); // the eviction owed was paid
  });
});

it('Redis flushed: sessions validate from PostgreSQL and are cached again', async () => {
  await ready();
  const user = await signUp(t.app);
  const token = (await signIn(t.app, user.email)).token!;
  await cachedInRedis(token);
  const keys = await t.ctx.redis!.keys(`${t.config.redisPrefix}session:*`);
  expect(keys.length).toBeGreaterThan(0);
  await t.ctx.redis!.del(...keys);
  expect((await serverSession(token))?.session.token).toBe(token);
  expect((await t.ctx.redis!.keys(`${t.config.redisPrefix}session:*`)).length).toBeGreaterThan(0);
});

import { buildApp } from '../../../src/app';
import { listenOnLoopback, startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, signUp, uniqueEmail } from '../../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';

/**
 * PostgreSQL out of reach under a running API (its connections cut by a proxy). Requests answer 503 in bounded
 * time with no partial writes, readiness says so, and the service recovers without a restart. Restarts, stops and
 * hangs of a real server, and pool exhaustion, are in test/fault/db-outage.test.ts.
 */
let proxy: TcpProxy;
let t: TestApp;
beforeAll(async () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy(Number(url.port || 5432));
  url.host = `127.0.0.1:${proxy.port}`;
  t = await startTestApp({}, { DATABASE_URL: url.toString() });
});
afterAll(async () => {
  proxy.restore();
  await t?.close();
  await proxy?.close();
});

const ready = () => t.app.inject({ method: 'GET', url: '/api/auth/health/ready' });

it('liveness answers without asking any dependency; readiness checks them all', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/auth/health/live' })).json()).toEqual({ status: 'live' });
  const res = await ready();
  expect([res.statusCode, res.json()]).toEqual([
    200,
    { status: 'ready', checks: { database: 'ok', migrations: 'ok', redis: 'ok' } },
  ]);
});

it('PostgreSQL down: 503 in bounded time, no partial write, readiness 503; back: recovers', async () => {
  const user = await signUp(t.app);
  const email = uniqueEmail('during-outage');
  proxy.cut();
  try {
    const started = Date.now();
    const res = await post(t.app, '/sign-up/email', { name: 'Outage', email, password: PASSWORD });
    expect(Date.now() - started).toBeLessThan(8000);
    expect([res.statusCode, res.json()]).toEqual([
      503,
      { code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable, try again later' },
    ]);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const signIn = await post(t.app, '/sign-in/email', { email: user.email, password: PASSWORD });
    expect(signIn.statusCode).toBe(503);
    const probe = await ready();
    expect([probe.statusCode, probe.json().checks.database]).toEqual([503, 'failing']);
  } finally {
    proxy.restore();
  }
  // Recovery without a restart: the pool reconnects, and the refused sign-up left nothing behind.
  let back = await ready();
  for (let i = 0; i < 40 && back.statusCode !== 200; i++) {
    await new Promise((r) => setTimeout(r, 250));
    back = await ready();
  }
  expect(back.statusCode).toBe(200);
  const again = await post(t.app, '/sign-up/email', { name: 'Outage', email, password: PASSWORD });
  expect(again.statusCode).toBe(200);
  const session = await get(t.app, '/get-session', { bearer: again.json().token });
  expect(session.json().user.email).toBe(email);
});

/**
 * get-session's fast path (features/session/cookie-fast-path.ts) answers an outage as Fastify's route does: a
 * session that is in no cache must be read from PostgreSQL, which is out of reach.
 */
it('PostgreSQL down: get-session of an uncached session answers the same 503 on the fast path and through Fastify', async () => {
  const [withFastPath, plain] = [await buildApp(t.ctx), await buildApp(t.ctx, { cookieFastPath: false })];
  let reachedFastify = 0;
  withFastPath.addHook('onRequest', (_request, _reply, done) => {
    reachedFastify++;
    done();
  });
  try {
    const [fastBase, plainBase] = [await listenOnLoopback(withFastPath), await listenOnLoopback(plain)];
    // Sessions never looked up: in no cache.
    const [one, two] = [await signUp(t.app), await signUp(t.app)];
    proxy.cut();
    try {
      const lookup = async (base: string, token: string) => {
        const res = await fetch(`${base}/get-session`, { headers: { authorization: `Bearer ${token}` } });
        const { date, ...headers } = Object.fromEntries(res.headers);
        expect(date).toBeDefined();
        return { status: res.status, headers, body: await res.text() };
      };
      const [fast, slow] = [await lookup(fastBase, one.token), await lookup(plainBase, two.token)];
      expect(fast.status).toBe(503);
      expect(JSON.parse(fast.body)).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Service temporarily unavailable, try again later',
      });
      expect(fast).toEqual(slow);
      expect(reachedFastify).toBe(0);
    } finally {
      proxy.restore();
    }
  } finally {
    await Promise.all([withFastPath.close(), plain.close()]);
  }
});

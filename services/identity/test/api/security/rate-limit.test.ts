import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { clientKey } from '../../../src/infra/rate-limit';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { PASSWORD, type SignedUp, signUp } from '../../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';

/** Brute force (docs/security.md): parallel guesses in one window, path aliases, address normalisation. */
const freshPrefix = () => `${process.env.TEST_REDIS_PREFIX}rl-${randomBytes(4).toString('hex')}:`;
const limitedEnv = () => ({ RATE_LIMIT_ENABLED: 'true', REDIS_PREFIX: freshPrefix() });

let plain: TestApp; // no limits: creates the users the attacks aim at
let limited: TestApp; // sign-in: 3 per 60 s per client
let tiny: TestApp; // global: 5 per 60 s per client
let user: SignedUp;
beforeAll(async () => {
  plain = await startTestApp();
  // The per-address limits alone (the per-account counter has its own tests below).
  const perAddressOnly = { accountFailures: { windowSec: 60, max: 0 } };
  // The operator's rules: two replace the limits /sign-in/email and /two-factor/verify-totp declare, one gives
  // /sign-out (which declares none) one.
  const rules = {
    '/sign-in/email': { windowSec: 60, max: 3 },
    '/two-factor/verify-totp': { windowSec: 60, max: 2 },
    '/sign-out': { windowSec: 60, max: 2 },
  };
  limited = await startTestApp({ rateLimit: { ...perAddressOnly, rules } }, limitedEnv());
  tiny = await startTestApp({ rateLimit: { ...perAddressOnly, global: { windowSec: 60, max: 5 } } }, limitedEnv());
  user = await signUp(plain.app);
});
afterAll(async () => {
  await limited?.close();
  await tiny?.close();
  await plain?.close();
});

let ipCounter = 0;
/** A client address no other test uses, so each test starts with a fresh bucket. */
const newIp = () => `198.51.100.${++ipCounter}`;

const signInFrom = (ip: string, url = '/api/auth/sign-in/email', password = PASSWORD) =>
  limited.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { origin: PUBLIC_URL },
    payload: { email: user.email, password },
  });

const sessionCount = async () =>
  (
    await plain.ctx.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
      user.userId,
    ])
  )[0].n;

function expectLimited(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded.' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['set-cookie']).toBeUndefined();
}

describe('sign-in rate limit (Redis store)', () => {
  it('allows 3 attempts, then answers 429 RATE_LIMITED with Retry-After and creates nothing', async () => {
    const ip = newIp();
    const before = await sessionCount();
    for (let i = 0; i < 3; i++) expect((await signInFrom(ip)).statusCode).toBe(200);
    expect(await sessionCount()).toBe(before + 3);
    expectLimited(await signInFrom(ip));
    expectLimited(await signInFrom(ip, undefined, 'wrong password'));
    expect(await sessionCount()).toBe(before + 3);
    const keys = await limited.ctx.redis!.keys(`${limited.config.redisPrefix}rate-limit:*`);
    expect(keys.length).toBeGreaterThan(0); // counted in Redis, not in process
  });

  it('gives another client its own allowance (keyed by address)', async () => {
    const a = newIp();
    for (let i = 0; i < 3; i++) await signInFrom(a, undefined, 'wrong password');
    expectLimited(await signInFrom(a));
    expect((await signInFrom(newIp(), undefined, 'wrong password')).statusCode).toBe(401);
  });

  it('counts a whole IPv6 /64 as one client', async () => {
    const before = await sessionCount();
    for (const ip of ['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1:abcd:ef01:2345:6789'])
      expect((await signInFrom(ip)).statusCode).toBe(200);
    expectLimited(await signInFrom('2001:db8:77:1:ffff:ffff:ffff:fffe'));
    expectLimited(await signInFrom('2001:DB8:0077:0001::9'));
    expect((await signInFrom('2001:db8:77:2::1')).statusCode).toBe(200); // the next /64 is another client
    expect(await sessionCount()).toBe(before + 4);
  });

  it.each([
    ['/api/auth//sign-in/email', '/api/auth/sign-in/email/', '/api/auth/sign-in//email'],
    ['/api/auth/sign-in/email/', '/api/auth//sign-in//email/', '/api/auth/sign-in/email?x=1'],
    ['//api/auth/sign-in/email', '/api/auth/sign-in/%65mail', '/api/auth/./sign-in/email'],
  ])('path aliases %s, %s, %s share the bucket of /sign-in/email', async (...aliases) => {
    const ip = newIp();
    for (const alias of aliases) {
      const res = await signInFrom(ip, alias, 'wrong password');
      expect(res.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
    }
    expectLimited(await signInFrom(ip));
    for (const alias of aliases) expectLimited(await signInFrom(ip, alias));
  });

  it('answers 404 NOT_FOUND for case variants and encoded slashes: no route, so no fresh allowance', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++) await signInFrom(ip, undefined, 'wrong password');
    const before = await sessionCount();
    const variants = ['/api/auth/Sign-In/Email', '/api/auth/SIGN-IN/EMAIL', '/API/AUTH/sign-in/email'];
    // An encoded slash or a matrix suffix is not the route either (and so cannot be a second bucket of it).
    variants.push('/api/auth/sign-in%2Femail', '/api/auth/sign-in/email%2F', '/api/auth/sign-in/email;x');
    for (const variant of variants) {
      const res = await signInFrom(ip, variant);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    }
    expect(await sessionCount()).toBe(before);
  });

  it('lets at most 3 of 10 parallel guesses in one window through', async () => {
    const ip = newIp();
    const before = await sessionCount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => signInFrom(ip)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c !== 429)).toEqual([200, 200, 200]);
    for (const r of answers.filter((a) => a.statusCode === 429)) expectLimited(r);
    expect(await sessionCount()).toBe(before + 3);
  });

  it('opens a new window after the window length (no permanent lockout)', async () => {
    const ip = newIp();
    const fast = await startTestApp(
      // a window longer than an argon2 check takes on a loaded machine, so the second attempt falls in the first's
      { rateLimit: { rules: { '/sign-in/email': { windowSec: 5, max: 1 } } } },
      limitedEnv(),
    );
    try {
      const attempt = () =>
        fast.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: ip,
          headers: { origin: PUBLIC_URL },
          payload: { email: user.email, password: 'wrong password' },
        });
      expect((await attempt()).statusCode).toBe(401);
      expectLimited(await attempt());
      await new Promise((r) => setTimeout(r, 5100));
      expect((await attempt()).statusCode).toBe(401);
    } finally {
      await fast.close();
    }
  });
});

describe("operator rules beside the routes' declared limits", () => {
  const call = (url: string, ip: string, payload: object = {}) =>
    limited.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { origin: PUBLIC_URL }, payload });

  it('a rule for a path whose route declares no limit gives it one', async () => {
    const ip = newIp();
    for (let i = 0; i < 2; i++) expect((await call('/api/auth/sign-out', ip)).statusCode).toBe(200);
    expectLimited(await call('/api/auth/sign-out', ip));
    expectLimited(await call('/api/auth//sign-out/', ip));
  });

  it('a rule replaces the limit of its path only, not of a route declaring the same (verify-backup-code)', async () => {
    const ip = newIp();
    const code = (path: string) => call(`/api/auth/two-factor/${path}`, ip, { code: '123456' });
    for (let i = 0; i < 2; i++) expect((await code('verify-totp')).json().code).toBe('INVALID_TWO_FACTOR_COOKIE');
    expectLimited(await code('verify-totp'));
    for (let i = 0; i < 3; i++) expect((await code('verify-backup-code')).statusCode).toBe(401);
  });

  it('the routes the rules do not name keep their declared limit (request-password-reset: 5 per 60 s)', async () => {
    const ip = newIp();
    const reset = () => call('/api/auth/request-password-reset', ip, { email: 'nobody@example.test' });
    for (let i = 0; i < 5; i++) expect((await reset()).statusCode).toBe(200);
    expectLimited(await reset());
  });
});

describe('global limit', () => {
  it('never limits GET /get-session, while other routes hit the tiny global limit', async () => {
    const ip = newIp();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        tiny.app.inject({ method: 'GET', url: '/api/auth/get-session', remoteAddress: ip }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(answers.every((r) => r.body === 'null')).toBe(true);
    const list = () => tiny.app.inject({ method: 'GET', url: '/api/auth/list-sessions', remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await list()).statusCode).toBe(401);
    expectLimited(await list());
    expect((await tiny.app.inject({ method: 'GET', url: '/api/auth/get-session', remoteAddress: ip })).statusCode).toBe(
      200,
    );
  });
});

describe('clientKey (unit)', () => {
  it('keeps IPv4 as is and unwraps IPv4-mapped IPv6', () => {
    expect(clientKey('1.2.3.4')).toBe('1.2.3.4');
    expect(clientKey('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(clientKey('::FFFF:10.0.0.1')).toBe('10.0.0.1');
  });

  it('maps addresses of one IPv6 /64 to one key, whatever the spelling', () => {
    const key = clientKey('2001:db8:1:2:3:4:5:6');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::9')).toBe(key);
    expect(clientKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKey('2001:db8:1:2::')).toBe(key);
  });

  it('gives another /64 another key', () => {
    expect(clientKey('2001:db8:1:3::9')).not.toBe(clientKey('2001:db8:1:2::9'));
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8::1')).not.toBe(clientKey('2001:db8:1::1'));
    expect(clientKey('::1')).not.toBe(clientKey('2001:db8:1:2::9'));
  });
});

describe('with Redis gone (limits fall back to in-process counters)', () => {
  let proxy: TcpProxy;
  let cut: TestApp;
  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(process.env.TEST_REDIS_URL!).port || 6379));
    cut = await startTestApp(
      {
        rateLimit: {
          accountFailures: { windowSec: 60, max: 0 },
          rules: { '/sign-in/email': { windowSec: 60, max: 3 } },
        },
      },
      { ...limitedEnv(), REDIS_URL: `redis://127.0.0.1:${proxy.port}/0` },
    );
  });
  afterAll(async () => {
    await cut?.close();
    await proxy?.close();
  });

  it.each([
    ['stopped', () => proxy.cut()],
    ['hung (accepts, never answers)', () => proxy.hang()],
  ])('limits fall back to in-process counters instead of switching off: Redis %s', async (_, fault) => {
    // Start from a connected client, so the hung case exercises the wait for an answer that never comes.
    for (let i = 0; i < 100 && cut.ctx.redis?.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(cut.ctx.redis?.status).toBe('ready');
    fault();
    const ip = newIp();
    const send = () =>
      cut.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: ip,
        headers: { origin: PUBLIC_URL },
        payload: { email: user.email, password: 'a wrong guess here' },
      });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await send());
    expect(answers.map((r) => r.statusCode)).toEqual([401, 401, 401, 429, 429]);
    expectLimited(answers[4]);
    proxy.restore();
  });
});

describe('per-account failure counter (guesses spread over many addresses)', () => {
  let accountLimited: TestApp;
  beforeAll(async () => {
    accountLimited = await startTestApp(
      {
        rateLimit: {
          accountFailures: { windowSec: 2, max: 3 },
          rules: { '/sign-in/email': { windowSec: 60, max: 100 } },
        },
      },
      limitedEnv(),
    );
  });
  afterAll(() => accountLimited?.close());

  const attempt = (email: string, password: string) =>
    accountLimited.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: newIp(), // every guess from another address: the per-address limit never fires
      headers: { origin: PUBLIC_URL },
      payload: { email, password },
    });

  it('throttles one account after its failures, whatever the address, until the window ends', async () => {
    const target = await signUp(plain.app);
    const before = await plain.ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
      target.userId,
    ]);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await attempt(target.email, `wrong guess ${i}`)).statusCode);
    expect(codes).toEqual([401, 401, 401]);
    expectLimited429(await attempt(target.email, 'wrong guess 4'));
    expectLimited429(await attempt(target.email.toUpperCase(), PASSWORD)); // even the right password, any case
    const after = await plain.ctx.sql.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
      target.userId,
    ]);
    expect(after).toEqual(before);
    await new Promise((r) => setTimeout(r, 2100)); // Redis keeps real time: the window ends
    expect((await attempt(target.email, PASSWORD)).statusCode).toBe(200);
  });

  it('lets exactly `max` of many parallel guesses at one account through (each counted before it runs)', async () => {
    const target = await signUp(plain.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => attempt(target.email, `parallel guess ${i}`)),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('counts an unknown email the same way (no enumeration), and a success clears the count', async () => {
    const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 0; i < 3; i++) expect((await attempt(unknown, 'some guess here')).statusCode).toBe(401);
    expectLimited429(await attempt(unknown, 'some guess here'));

    const target = await signUp(plain.app);
    for (let i = 0; i < 2; i++) expect((await attempt(target.email, 'wrong guess')).statusCode).toBe(401);
    expect((await attempt(target.email, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(target.email, 'wrong guess')).statusCode).toBe(401);
    expect((await attempt(target.email, PASSWORD)).statusCode).toBe(200);
  });
});

function expectLimited429(res: LightMyRequestResponse) {
  expect([res.statusCode, res.json()]).toEqual([429, { code: 'RATE_LIMITED', message: 'Rate limit exceeded.' }]);
}

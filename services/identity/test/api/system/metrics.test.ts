import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, signIn, signUp } from '../../setup/fixtures';

/** GET /metrics: each series moves when the thing it counts happens. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    {
      rateLimit: { accountFailures: { windowSec: 60, max: 0 }, rules: { '/sign-in/email': { windowSec: 60, max: 3 } } },
    },
    {
      RATE_LIMIT_ENABLED: 'true',
      REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}metrics-${randomBytes(3).toString('hex')}:`,
    },
  );
});
afterAll(() => t?.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};
/** The value of one sample, e.g. value(text, 'identity_sign_in_total', {method: 'email', outcome: 'success'}). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').pop());
  }
  return 0;
}

it('counts sign-in outcomes, get-session paths, hash time, HTTP latency and rate-limit refusals', async () => {
  const user = await signUp(t.app);
  const before = await scrape();
  const ip = '203.0.113.7';
  const attempt = (password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: ip,
      headers: { origin: 'http://localhost:3000' },
      payload: { email: user.email, password },
    });
  expect((await attempt(PASSWORD)).statusCode).toBe(200);
  expect((await attempt('wrong password!')).statusCode).toBe(401);
  expect((await attempt(PASSWORD)).statusCode).toBe(200);
  expect((await attempt(PASSWORD)).statusCode).toBe(429);

  const { jar, token } = await signIn(t.app, user.email);
  await get(t.app, '/get-session', { jar }); // cookie cache
  await get(t.app, '/get-session?disableCookieCache=true', { bearer: token }); // Redis (filled at sign-in) or DB
  await get(t.app, '/get-session', {}); // none
  await post(t.app, '/sign-out', undefined, { bearer: token });
  await get(t.app, '/get-session?disableCookieCache=true', { bearer: token }); // none: revoked

  const after = await scrape();
  const delta = (name: string, labels: Record<string, string> = {}) =>
    value(after, name, labels) - value(before, name, labels);
  expect(delta('identity_sign_in_total', { method: 'email', outcome: 'success' })).toBe(3);
  expect(delta('identity_sign_in_total', { method: 'email', outcome: 'invalid_email_or_password' })).toBe(1);
  expect(delta('identity_rate_limited_total', { route: '/api/auth/sign-in/email' })).toBe(1);
  expect(delta('identity_get_session_total', { path: 'cookie' })).toBe(1);
  expect(
    delta('identity_get_session_total', { path: 'redis' }) + delta('identity_get_session_total', { path: 'database' }),
  ).toBe(1);
  expect(delta('identity_get_session_total', { path: 'none' })).toBe(2);
  expect(delta('identity_password_hash_seconds_count', { op: 'verify' })).toBe(4);
  expect(
    delta('identity_http_request_duration_seconds_count', { route: '/api/auth/sign-in/email', status: '429' }),
  ).toBe(1);
  // Paths carry route patterns, never raw URLs (reset tokens live in some paths).
  expect(after).not.toContain(token);
  expect(value(after, 'identity_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  expect(after).toMatch(/identity_mail_jobs\{state="waiting"\} \d+/);
  expect(after).toContain('identity_process_cpu_seconds_total');
});

it('is not part of the API document and can be switched off', async () => {
  const off = await startTestApp({}, { METRICS_ENABLED: 'false' });
  try {
    expect((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  } finally {
    await off.close();
  }
});

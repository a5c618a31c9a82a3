import { PassThrough } from 'node:stream';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, signIn, signUp } from '../../setup/fixtures';

/**
 * The request log (pino JSON with request ids) never holds a token, a cookie, a password,
 * an Authorization or x-api-key header, or a token-bearing URL (reset, verify and delete links).
 */
let t: TestApp;
let log = '';
beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk) => (log += chunk));
  t = await startTestApp({}, { LOG_LEVEL: 'info' }, sink);
});
afterAll(() => t?.close());

it('logs requests with ids and redacts every secret', async () => {
  const user = await signUp(t.app);
  const { token, jar } = await signIn(t.app, user.email);
  await get(t.app, '/get-session', { jar });
  await get(t.app, '/get-session', { bearer: token! });
  const resetToken = 'A1b2C3d4E5f6G7h8I9j0K1l2';
  await get(t.app, `/reset-password/${resetToken}?callbackURL=%2Freset`);
  await get(t.app, '/verify-email?token=eyJhbGciOiJIUzI1NiJ9.secret-payload.sig&callbackURL=%2F');
  await get(t.app, '/delete-user/callback?token=abcdefghij0123456789abcdefghij01&callbackURL=%2F');
  await post(
    t.app,
    '/set-password',
    { newPassword: 'a new secret value' },
    { headers: { 'x-api-key': 'k'.repeat(40) } },
  );
  await new Promise((r) => setImmediate(r));

  const lines = log
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const requests = lines.filter((l) => l.req);
  // One line per request (infra/request-log.ts); the successful get-session lookups are not logged by default.
  expect(requests.length).toBeGreaterThanOrEqual(6);
  for (const line of requests) expect(line.reqId).toEqual(expect.any(String));
  for (const secret of [
    token!,
    user.token,
    PASSWORD,
    resetToken,
    'secret-payload',
    'abcdefghij0123456789abcdefghij01',
    'k'.repeat(40),
    'a new secret value',
    ...[...jar.cookies.values()],
  ])
    expect([secret, log.includes(secret)]).toEqual([secret, false]);
  expect(log).toContain('/reset-password/[redacted]');
  expect(log).toContain('token=[redacted]');
});

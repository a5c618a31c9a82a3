import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PUBLIC_URL } from '../../setup/app';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';

/**
 * Two API processes on one PostgreSQL and Redis, as two replicas behind a load balancer: a session made on one is
 * valid on the other, and a revocation on one is refused on the other at once.
 */
let a: ApiProcess;
let b: ApiProcess;
beforeAll(async () => {
  [a, b] = await Promise.all([spawnApi(), spawnApi()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const post = (api: ApiProcess, path: string, body: unknown, token?: string) =>
  fetch(`${api.base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: PUBLIC_URL,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
const session = async (api: ApiProcess, token: string) =>
  (
    await fetch(`${api.base}/get-session?disableCookieCache=true`, { headers: { authorization: `Bearer ${token}` } })
  ).json();

it('signs in on one instance, validates on the other, and a revocation on one holds on the other at once', async () => {
  const email = uniqueEmail('replicas');
  expect((await post(a, '/sign-up/email', { name: 'R', email, password: PASSWORD })).status).toBe(200);
  const signedIn = await post(b, '/sign-in/email', { email, password: PASSWORD });
  const { token } = await signedIn.json();
  const cookie = signedIn.headers.getSetCookie().map((c) => c.split(';')[0]);

  expect((await session(a, token))?.user.email).toBe(email);
  expect((await session(b, token))?.user.email).toBe(email); // now cached in the shared Redis
  // The signed session cookie of one instance is good on the other (one secret).
  const byCookie = await fetch(`${a.base}/get-session`, { headers: { cookie: cookie.join('; ') } });
  expect((await byCookie.json())?.session.token).toBe(token);

  expect((await post(a, '/sign-out', {}, token)).status).toBe(200);
  expect(await session(b, token)).toBeNull();
  expect(await session(a, token)).toBeNull();
  const change = await post(b, '/update-user', { name: 'Nope' }, token);
  expect(change.status).toBe(401);
});

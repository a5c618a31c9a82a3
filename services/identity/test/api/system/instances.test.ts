import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../setup/api-process';
import { PUBLIC_URL, TEST_SECRET } from '../../setup/app';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';

/**
 * deploy/local/cluster.sh as an operator runs it: migrate, two API processes on two ports and two mail workers on
 * one PostgreSQL and Redis, like replicas behind a load balancer. A session made on one instance is valid on the
 * other, and a revocation on one is refused on the other at once.
 */
const root = resolve(__dirname, '../../../../..');
let cluster: ChildProcess;
let output = '';
let a: Instance;
let b: Instance;

interface Instance {
  base: string;
}

beforeAll(async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  cluster = spawn('bash', ['deploy/local/cluster.sh'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
      AUTH_SECRET: TEST_SECRET,
      PUBLIC_URL,
      PORTS: `${portA} ${portB}`,
      WORKERS: '2',
      NODE_ENV: 'test',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  cluster.stdout!.on('data', (d) => (output += d));
  cluster.stderr!.on('data', (d) => (output += d));
  [a, b] = [portA, portB].map((port) => ({ base: `http://127.0.0.1:${port}/api/auth` }));
  for (const instance of [a, b]) await waitReady(instance.base);
  expect(output.match(/cluster: mail worker \d/g)).toHaveLength(2);
}, 60_000);
afterAll(async () => {
  if (!cluster || cluster.exitCode !== null) return;
  const exited = new Promise((done) => cluster.once('exit', done));
  cluster.kill('SIGTERM');
  await exited;
});

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (cluster.exitCode !== null) throw new Error(`cluster exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`instance at ${base} not ready: ${output}`);
}

const post = (api: Instance, path: string, body: unknown, token?: string) =>
  fetch(`${api.base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: PUBLIC_URL,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
const session = async (api: Instance, token: string) =>
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

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchInfra } from './infra';
import { assertNodePid, freePort, spawnServer, waitReady } from './proc';

export const TOKEN_COOKIE = 'better-auth.session_token';
export const DATA_COOKIE = 'better-auth.session_data';

export interface Identity {
  child: ChildProcess;
  base: string;
  origin: string;
}

export interface Credentials {
  name: string;
  email: string;
  password: string;
}

/**
 * The Node.js flags the API runs with in production: those of the package's start script, which the image's CMD
 * and the chart's command repeat (test/deploy checks they agree), so the bench measures the server as deployed.
 */
export function apiNodeFlags(serviceRoot = join(__dirname, '..', '..')): string[] {
  const pkg = JSON.parse(readFileSync(join(serviceRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [node, ...rest] = pkg.scripts.start.split(/\s+/);
  if (node !== 'node' || rest.at(-1) !== 'dist/main.js')
    throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return rest.slice(0, -1);
}

/** Starts dist/main.js on the server core against the bench database and waits for /api/auth/ok. */
export async function startIdentity(infra: BenchInfra, secret: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const child = spawnServer(join(__dirname, '..', '..', 'dist', 'main.js'), {
    nodeArgs: apiNodeFlags(),
    env: {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: infra.redisPrefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      AUTH_SECRET: secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'true',
      ...serverEnvFromBench(),
      ...extraEnv,
    },
  });
  const base = `http://127.0.0.1:${port}/api/auth`;
  await waitReady(child, `${base}/ok`, (body) => (JSON.parse(body) as { ok?: unknown }).ok === true);
  assertNodePid(child);
  return { child, base, origin } satisfies Identity;
}

/** BENCH_SERVER_ENV='METRICS_ENABLED=false A=b': settings for an A/B run of the server (space-separated). */
function serverEnvFromBench(): Record<string, string> {
  const pairs = (process.env.BENCH_SERVER_ENV ?? '').split(/\s+/).filter((p) => p.includes('='));
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

export const randomSecret = (): string => randomBytes(36).toString('base64url'); // 48 characters

export function benchUser(): Credentials {
  return { name: 'Bench User', email: `bench-${randomBytes(4).toString('hex')}@example.com`, password: randomSecret() };
}

async function post(identity: Identity, path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${identity.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: identity.origin },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response;
}

export async function signUp(identity: Identity, user: Credentials): Promise<void> {
  await post(identity, '/sign-up/email', user);
}

/** Signs in and returns the Set-Cookie values by name, exactly as sent (`name=value`, attributes dropped). */
export async function signIn(identity: Identity, user: Credentials): Promise<Map<string, string>> {
  const response = await post(identity, '/sign-in/email', { email: user.email, password: user.password });
  const cookies = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';', 1)[0];
    cookies.set(pair.slice(0, pair.indexOf('=')), pair);
  }
  for (const name of [TOKEN_COOKIE, DATA_COOKIE])
    if (!cookies.get(name)?.includes('=')) throw new Error(`sign-in did not set ${name}`);
  return cookies;
}

/** A session body that is not null and names the expected user (the check autocannon runs on every answer). */
export function isSessionFor(email: string): (body: string) => boolean {
  const needle = `"email":"${email}"`;
  return (body) => body !== 'null' && body.includes(needle);
}

/** One request outside the load run: it must answer 200 with a session of `email`. */
export async function checkSession(url: string, cookie: string, email: string): Promise<void> {
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.text();
  if (response.status !== 200 || !isSessionFor(email)(body))
    throw new Error(`GET ${url} with ${cookie.split('=', 1)[0]}…: ${response.status} ${body.slice(0, 200)}`);
}

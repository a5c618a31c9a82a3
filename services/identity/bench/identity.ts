import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deployedEnv } from './deployed';
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
    stdoutFile: serverLogFile(),
    env: {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: infra.redisPrefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      AUTH_SECRET: secret,
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'true',
      ...deployedEnv(),
      ...serverEnvFromBench(),
      ...extraEnv,
    },
  });
  const base = `http://127.0.0.1:${port}/api/auth`;
  await waitReady(child, `${base}/ok`, (body) => (JSON.parse(body) as { ok?: unknown }).ok === true);
  assertNodePid(child);
  return { child, base, origin } satisfies Identity;
}

/**
 * The mail and webhook worker beside the API, as deployed (`node dist/worker.js`, on the server core: idle, it
 * waits on Redis).
 */
export async function startWorker(infra: BenchInfra, secret: string) {
  const child = spawnServer(join(__dirname, '..', '..', 'dist', 'worker.js'), {
    env: {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: infra.redisPrefix,
      AUTH_SECRET: secret,
      PUBLIC_URL: 'http://localhost:3000',
      NODE_ENV: 'production',
    },
    stdoutFile: serverLogFile(),
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if (child.exitCode !== null || child.signalCode !== null) throw new Error('the worker exited at start');
  return child;
}

let logFile: string | undefined;
/**
 * The identity servers' and the worker's log (their stdout): a file, as a container's log is, removed with the
 * run unless BENCH_KEEP_LOG is set (its path is printed then); BENCH_LOG_FILE names another (e.g. /dev/null).
 */
export function serverLogFile(): string {
  if (process.env.BENCH_LOG_FILE) return process.env.BENCH_LOG_FILE;
  if (!logFile) {
    logFile = join(mkdtempSync(join(tmpdir(), 'bench-log-')), 'identity.log');
    if (process.env.BENCH_KEEP_LOG) console.log(`server log: ${logFile}`);
    else process.on('exit', () => rmSync(dirname(logFile!), { recursive: true, force: true }));
  }
  return logFile;
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

/**
 * Each session's token cookie with a session-cache cookie just issued for it (get-session by the token sends a new
 * one, as a browser gets it): the cache cookie lives a minute, so path (a) is measured on fresh ones. A lookup sends
 * a cache cookie once per cookie made, so a token looked up within the last second gets none: it is asked again
 * after that second.
 */
export async function freshCacheCookies(url: string, tokens: string[]): Promise<string[]> {
  return Promise.all(
    tokens.map(async (token) => {
      const data = (await cacheCookie(url, token)) ?? (await sleep(1100).then(() => cacheCookie(url, token)));
      if (!data) throw new Error(`get-session sent no ${DATA_COOKIE} cookie`);
      return `${token}; ${data}`;
    }),
  );
}

async function cacheCookie(url: string, token: string): Promise<string | undefined> {
  const response = await fetch(url, { headers: { cookie: token } });
  await response.text();
  if (response.status !== 200) throw new Error(`get-session answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .find((pair) => pair.startsWith(`${DATA_COOKIE}=`));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request outside the load run: it must answer 200 with a session of `email`. */
export async function checkSession(url: string, cookie: string, email: string): Promise<void> {
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.text();
  if (response.status !== 200 || !isSessionFor(email)(body))
    throw new Error(`GET ${url} with ${cookie.split('=', 1)[0]}…: ${response.status} ${body.slice(0, 200)}`);
}

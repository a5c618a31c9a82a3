import { once } from 'node:events';
import { join } from 'node:path';
import type { Argon2Report } from './argon2-loop';
import * as id from './identity';
import { type BenchInfra, countRedisKeys, setFloorKey } from './infra';
import { type LoadSettings, measure } from './load';
import { assertNodePid, freePort, rssMb, spawnServer, stopChild, waitReady } from './proc';
import type { ReportRow } from './report';
import { introspectRow, jwtVerifyRow } from './validation';
import { measureRotated } from './wrk';

/** Row names; get-session and sign-in rows carry the name of the floor row they are compared with. */
export const EMPTY = 'floor GET /empty';
export const REDIS = 'floor GET /redis';
export const PG = 'floor GET /pg';
export const ARGON2 = 'argon2 verify loop';
export const A = 'get-session (a) cookie cache';
export const B = 'get-session (b) redis cache';
export const C = 'get-session (c) database';
export const SIGN_IN = 'POST sign-in/email';

/** The rotated load shape (wrk, the next session on every request); run when wrk is installed. */
export const ROTATED = ' [wrk, rotated]';
export const EMPTY_R = `${EMPTY}${ROTATED}`;
export const REDIS_R = `${REDIS}${ROTATED}`;
export const PG_R = `${PG}${ROTATED}`;
export const A_R = `${A}${ROTATED}`;
export const B_R = `${B}${ROTATED}`;
export const C_R = `${C}${ROTATED}`;

export async function floorRows(infra: BenchInfra, settings: LoadSettings, rotated: boolean): Promise<ReportRow[]> {
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl };
  const child = spawnServer(join(__dirname, 'floor-server.js'), {
    env: { ...env, BENCH_REDIS_KEY: await setFloorKey(infra) },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(child, `${base}/empty`, (body) => body === '{}');
  assertNodePid(child);
  const rows: ReportRow[] = [];
  for (const [name, path] of [
    [EMPTY, '/empty'],
    [REDIS, '/redis'],
    [PG, '/pg'],
  ]) {
    await waitReady(child, `${base}${path}`, () => true, 5000);
    rows.push(await measure({ name, url: `${base}${path}` }, settings, child.pid));
    if (rotated)
      rows.push(
        await measureRotated({ name: `${name}${ROTATED}`, url: `${base}${path}`, cookies: [] }, settings, child.pid),
      );
  }
  await stopChild(child);
  return rows;
}

/**
 * get-session (a) and (b), introspection, JWT verification and sign-in on one identity server. get-session runs
 * with one session per connection (the user signed in `connections` times), each request naming the next one;
 * the sessions' token cookies are returned for (c).
 */
export async function identityRows(
  infra: BenchInfra,
  settings: LoadSettings,
  secret: string,
  user: id.Credentials,
  rotated: boolean,
) {
  const serviceKey = id.randomSecret();
  const server = await id.startIdentity(infra, secret, { SERVICE_API_KEY: serviceKey });
  await id.signUp(server, user);
  const sessions = await Promise.all(Array.from({ length: settings.connections }, () => id.signIn(server, user)));
  const url = `${server.base}/get-session`;
  const verifyBody = id.isSessionFor(user.email);
  const both = sessions.map((c) => `${c.get(id.TOKEN_COOKIE)}; ${c.get(id.DATA_COOKIE)}`);
  await Promise.all(both.map((cookie) => id.checkSession(url, cookie, user.email)));
  const rows: ReportRow[] = [];
  rows.push({
    ...(await measure({ name: A, url, cookies: both, verifyBody }, settings, server.child.pid)),
    ratioTo: EMPTY,
  });
  const mustContain = `"email":"${user.email}"`;
  if (rotated)
    rows.push({
      ...(await measureRotated({ name: A_R, url, cookies: both, mustContain }, settings, server.child.pid)),
      ratioTo: EMPTY_R,
    });
  const tokens = sessions.map((c) => c.get(id.TOKEN_COOKIE)!);
  await Promise.all(tokens.map((token) => id.checkSession(url, token, user.email))); // fills the Redis session cache
  if ((await countRedisKeys(infra, 'session:*')) < tokens.length)
    throw new Error('a session has no Redis cache entry after get-session');
  rows.push({
    ...(await measure({ name: B, url, cookies: tokens, verifyBody }, settings, server.child.pid)),
    ratioTo: REDIS,
  });
  if (rotated)
    rows.push({
      ...(await measureRotated({ name: B_R, url, cookies: tokens, mustContain }, settings, server.child.pid)),
      ratioTo: REDIS_R,
    });
  // the unsigned session tokens, from `better-auth.session_token=<token>.<signature>`
  const raw = tokens.map((cookie) => decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.')[0]);
  rows.push({ ...(await introspectRow(server, settings, raw, serviceKey)), ratioTo: REDIS });
  rows.push(await jwtVerifyRow(server, settings, raw[0]));
  const signIn = {
    name: SIGN_IN,
    url: `${server.base}/sign-in/email`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ email: user.email, password: user.password }),
    tolerateFailures: true,
    timeoutSec: 60,
  };
  rows.push({ ...(await measure(signIn, settings, server.child.pid)), ratioTo: ARGON2 });
  await stopChild(server.child);
  return { rows, tokens };
}

export async function argon2Row(settings: LoadSettings): Promise<ReportRow> {
  process.stderr.write(`  ${ARGON2}: warm-up ${settings.warmupSec}s, run ${settings.durationSec}s\n`);
  const env = {
    BENCH_DURATION_SEC: String(settings.durationSec),
    BENCH_WARMUP_SEC: String(settings.warmupSec),
    BENCH_CONNECTIONS: String(settings.connections),
  };
  const child = spawnServer(join(__dirname, 'argon2-loop.js'), { env, ipc: true });
  const failed = once(child, 'exit').then(([code]) => Promise.reject(new Error(`argon2 loop exited (${code})`)));
  const [report] = (await Promise.race([once(child, 'message'), failed])) as [Argon2Report];
  assertNodePid(child);
  const row = { name: ARGON2, rps: report.perSecond, p50: null, p99: null, rssMb: rssMb(child.pid), cpu: report.cpu };
  await stopChild(child);
  return row;
}

/** get-session (c): the sessions of identityRows on a server without the Redis session cache. */
export async function databaseRow(
  infra: BenchInfra,
  settings: LoadSettings,
  secret: string,
  user: id.Credentials,
  tokens: string[],
  rotated: boolean,
) {
  const server = await id.startIdentity(infra, secret, { SESSION_REDIS_CACHE_TTL_SEC: '0' });
  const url = `${server.base}/get-session`;
  await Promise.all(tokens.map((token) => id.checkSession(url, token, user.email)));
  const scenario = { name: C, url, cookies: tokens, verifyBody: id.isSessionFor(user.email) };
  const rows: ReportRow[] = [{ ...(await measure(scenario, settings, server.child.pid)), ratioTo: PG }];
  if (rotated) {
    const shape = { name: C_R, url, cookies: tokens, mustContain: `"email":"${user.email}"` };
    rows.push({ ...(await measureRotated(shape, settings, server.child.pid)), ratioTo: PG_R });
  }
  await stopChild(server.child);
  return rows;
}

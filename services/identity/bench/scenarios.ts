import { once } from 'node:events';
import { join } from 'node:path';
import type { Argon2Report } from './argon2-loop';
import { seedPopulation } from './deployed';
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

/**
 * The floors, each request carrying the cookies the get-session row it is compared with sends (the floor routes
 * ignore them; the server still reads them off the wire), so both sides parse the same requests.
 */
export async function floorRows(
  infra: BenchInfra,
  settings: LoadSettings,
  rotated: boolean,
  sessions: SessionCookies,
): Promise<ReportRow[]> {
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl };
  const child = spawnServer(join(__dirname, 'floor-server.js'), {
    env: { ...env, BENCH_REDIS_KEY: await setFloorKey(infra) },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(child, `${base}/empty`, (body) => body === '{}');
  assertNodePid(child);
  const rows: ReportRow[] = [];
  for (const [name, path, cookies] of [
    [EMPTY, '/empty', sessions.both],
    [REDIS, '/redis', sessions.tokens],
    [PG, '/pg', sessions.tokens],
  ] as const) {
    await waitReady(child, `${base}${path}`, () => true, 5000);
    rows.push(await measure({ name, url: `${base}${path}`, cookies: [...cookies] }, settings, child.pid));
    if (rotated)
      rows.push(
        await measureRotated(
          { name: `${name}${ROTATED}`, url: `${base}${path}`, cookies: [...cookies] },
          settings,
          child.pid,
        ),
      );
  }
  await stopChild(child);
  return rows;
}

/** The bench user's sessions as get-session is sent them: both cookies (path a), the token cookie alone (b, c). */
export interface SessionCookies {
  both: string[];
  tokens: string[];
}

/**
 * The deployed identity server (deployed.ts) with its mail worker, a population of users and sessions, and the
 * bench user signed in `connections` times (one session per connection); then a while of traffic (`soakSec`,
 * BENCH_SOAK_SEC): get-session on both cached paths and sign-ins, before any row is measured.
 */
export async function deployedIdentity(
  infra: BenchInfra,
  settings: LoadSettings,
  secret: string,
  user: id.Credentials,
  rotated: boolean,
) {
  const serviceKey = id.randomSecret();
  const server = await id.startIdentity(infra, secret, { SERVICE_API_KEY: serviceKey });
  const worker = await id.startWorker(infra, secret);
  await seedPopulation(infra);
  await id.signUp(server, user);
  const signedIn = await Promise.all(Array.from({ length: settings.connections }, () => id.signIn(server, user)));
  const sessions: SessionCookies = {
    both: signedIn.map((c) => `${c.get(id.TOKEN_COOKIE)}; ${c.get(id.DATA_COOKIE)}`),
    tokens: signedIn.map((c) => c.get(id.TOKEN_COOKIE)!),
  };
  const url = `${server.base}/get-session`;
  await Promise.all(sessions.both.map((cookie) => id.checkSession(url, cookie, user.email)));
  await Promise.all(sessions.tokens.map((token) => id.checkSession(url, token, user.email)));
  const soakSec = Number(process.env.BENCH_SOAK_SEC ?? 20);
  if (soakSec > 0) {
    process.stderr.write(`  soak: ${soakSec}s of get-session (cookie and Redis paths) and sign-ins\n`);
    const shape = { ...settings, durationSec: Math.max(1, Math.round(soakSec / 2) - 1), warmupSec: 1 };
    const signIns = soakSignIns(server, user, soakSec);
    signIns.catch(() => {}); // awaited below, after the load
    if (rotated) {
      await measureRotated({ name: 'soak (a)', url, cookies: sessions.both }, shape, server.child.pid);
      await measureRotated({ name: 'soak (b)', url, cookies: sessions.tokens }, shape, server.child.pid);
    } else {
      await measure({ name: 'soak (a)', url, cookies: sessions.both }, shape, server.child.pid);
      await measure({ name: 'soak (b)', url, cookies: sessions.tokens }, shape, server.child.pid);
    }
    await signIns;
  }
  return { server, worker, serviceKey, sessions };
}

/** A sign-in a second for `seconds`, beside the soak's get-session load. */
async function soakSignIns(server: id.Identity, user: id.Credentials, seconds: number): Promise<void> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; ) {
    await id.signIn(server, user);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * get-session (a) and (b), introspection, JWT verification and sign-in on the deployed identity server.
 * get-session runs with one session per connection, each request naming the next one.
 */
export async function identityRows(
  infra: BenchInfra,
  settings: LoadSettings,
  user: id.Credentials,
  rotated: boolean,
  deployed: Awaited<ReturnType<typeof deployedIdentity>>,
) {
  const { server, serviceKey } = deployed;
  const url = `${server.base}/get-session`;
  const verifyBody = id.isSessionFor(user.email);
  // The soak and the floors took longer than the cache cookies live.
  const sessions = { ...deployed.sessions, both: await id.freshCacheCookies(url, deployed.sessions.tokens) };
  const rows: ReportRow[] = [];
  rows.push({
    ...(await measure({ name: A, url, cookies: sessions.both, verifyBody }, settings, server.child.pid)),
    ratioTo: EMPTY,
  });
  const mustContain = `"email":"${user.email}"`;
  if (rotated)
    rows.push({
      ...(await measureRotated({ name: A_R, url, cookies: sessions.both, mustContain }, settings, server.child.pid)),
      ratioTo: EMPTY_R,
    });
  const { tokens } = sessions;
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
  return rows;
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

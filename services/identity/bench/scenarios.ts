import { once } from 'node:events';
import { join } from 'node:path';
import type { Argon2Report } from './argon2-loop';
import { seedPopulation } from './deployed';
import * as id from './identity';
import { type BenchInfra, countRedisKeys, setFloorKey } from './infra';
import { type LoadSettings, measure } from './load';
import { measurePair, type Pair } from './paired';
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
 * The floor server (floor-server.ts), up for the whole run: its rows alternate with the get-session rows they are
 * compared with (paired.ts), each request carrying the cookies that row sends (the floor routes ignore them; the
 * server still reads them off the wire), so both sides parse the same requests.
 */
export async function startFloor(infra: BenchInfra) {
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl };
  const child = spawnServer(join(__dirname, 'floor-server.js'), {
    env: { ...env, BENCH_REDIS_KEY: await setFloorKey(infra) },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(child, `${base}/empty`, (body) => body === '{}');
  assertNodePid(child);
  for (const path of ['/redis', '/pg']) await waitReady(child, `${base}${path}`, () => true, 5000);
  return { child, base };
}

export type Floor = Awaited<ReturnType<typeof startFloor>>;

/** A get-session row and its floor, in both load shapes (the rotated one when wrk is installed). */
async function pairRows(
  floor: Floor,
  [floorName, floorPath]: readonly [string, string],
  [name, url, pid]: readonly [string, string, number | undefined],
  cookies: () => Promise<string[]>,
  email: string,
  settings: LoadSettings,
  rotated: boolean,
): Promise<ReportRow[]> {
  const rounds = benchRounds();
  const rows: ReportRow[] = [];
  for (const shape of rotated ? [false, true] : [false]) {
    const suffix = shape ? ROTATED : '';
    const pair: Pair = {
      floor: { name: `${floorName}${suffix}`, url: `${floor.base}${floorPath}`, serverPid: floor.child.pid },
      subject: { name: `${name}${suffix}`, url, serverPid: pid },
      cookies,
      email,
      rotated: shape,
    };
    rows.push(...(await measurePair(pair, settings, rounds)));
  }
  return rows;
}

/** BENCH_ROUNDS: how many alternating rounds each get-session row and its floor get (3). */
export function benchRounds(): number {
  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  if (!(Number.isInteger(rounds) && rounds > 0))
    throw new Error(`BENCH_ROUNDS=${process.env.BENCH_ROUNDS}: expected a whole number > 0`);
  return rounds;
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
 * get-session (a) and (b), each alternating with its floor, then introspection, JWT verification and sign-in on the
 * deployed identity server.
 */
export async function identityRows(
  infra: BenchInfra,
  settings: LoadSettings,
  user: id.Credentials,
  rotated: boolean,
  deployed: Awaited<ReturnType<typeof deployedIdentity>>,
  floor: Floor,
) {
  const { server, serviceKey, sessions } = deployed;
  const url = `${server.base}/get-session`;
  const pid = server.child.pid;
  const rows: ReportRow[] = [];
  // (a): the cache cookie lives a minute, so every round gets fresh ones
  const fresh = () => id.freshCacheCookies(url, sessions.tokens);
  rows.push(...(await pairRows(floor, [EMPTY, '/empty'], [A, url, pid], fresh, user.email, settings, rotated)));
  const { tokens } = sessions;
  await Promise.all(tokens.map((token) => id.checkSession(url, token, user.email))); // fills the Redis session cache
  if ((await countRedisKeys(infra, 'session:*')) < tokens.length)
    throw new Error('a session has no Redis cache entry after get-session');
  const same = async () => tokens;
  rows.push(...(await pairRows(floor, [REDIS, '/redis'], [B, url, pid], same, user.email, settings, rotated)));
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

/** get-session (c), alternating with its floor: the sessions of identityRows on a server without the Redis session cache. */
export async function databaseRows(
  infra: BenchInfra,
  settings: LoadSettings,
  secret: string,
  user: id.Credentials,
  tokens: string[],
  rotated: boolean,
  floor: Floor,
) {
  const server = await id.startIdentity(infra, secret, { SESSION_REDIS_CACHE_TTL_SEC: '0' });
  const url = `${server.base}/get-session`;
  await Promise.all(tokens.map((token) => id.checkSession(url, token, user.email)));
  const same = async () => tokens;
  const subject = [C, url, server.child.pid] as const;
  const rows = await pairRows(floor, [PG, '/pg'], subject, same, user.email, settings, rotated);
  await stopChild(server.child);
  return rows;
}

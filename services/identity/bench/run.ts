/** `npm run bench`: floor routes, get-session on its three paths and sign-in vs argon2, one server at a time. */
import { cpus } from 'node:os';
import { machineBusy } from './cpu';
import * as id from './identity';
import { type BenchInfra, benchInfra, createDatabase, deleteRedisKeys, dropDatabase } from './infra';
import type { LoadSettings } from './load';
import { killAllSync, pinSelf, stopAll, stopChild } from './proc';
import { formatTable, formatTargets, type ReportRow, ratioOf, type Target } from './report';
import {
  A,
  A_R,
  ARGON2,
  argon2Row,
  B,
  B_R,
  benchRounds,
  C,
  C_R,
  databaseRows,
  deployedIdentity,
  EMPTY,
  EMPTY_R,
  identityRows,
  PG,
  PG_R,
  REDIS,
  REDIS_R,
  SIGN_IN,
  startFloor,
} from './scenarios';
import { INTROSPECT, JWT_VERIFY } from './validation';
import { hasWrk } from './wrk';

function targets(rows: ReportRow[]): Target[] {
  const list: Target[] = [];
  const goals = [
    [A, '(a)', 0.5],
    [B, '(b)', 0.6],
    [C, '(c)', 0.5],
    // The rotated rows against floors carrying the same cookies, on the deployed instance (docs/performance.md).
    [A_R, '(a) rotated', 0.8],
    [B_R, '(b) rotated', 0.8],
    [C_R, '(c) rotated', null],
  ] as const;
  for (const [name, label, limit] of goals) {
    const row = rows.find((r) => r.name === name);
    if (!row) continue; // the rotated rows need wrk
    if (limit !== null)
      list.push({ label: `${label} req/s ÷ ${row.ratioTo}`, value: ratioOf(rows, row) ?? 0, op: '>=', limit });
    list.push({ label: `${label} p99`, value: row.p99 ?? Number.POSITIVE_INFINITY, op: '<', limit: 15, unit: ' ms' });
  }
  const signIn = rows.find((r) => r.name === SIGN_IN)!;
  list.push({ label: `sign-in req/s ÷ ${ARGON2}`, value: ratioOf(rows, signIn) ?? 0, op: '>=', limit: 0.8 });
  return list;
}

let cleaning: Promise<void> | undefined;
function cleanup(infra: BenchInfra): Promise<void> {
  cleaning ??= (async () => {
    await stopAll();
    await dropDatabase(infra).catch((e: Error) => console.error(`cleanup: drop database: ${e.message}`));
    await deleteRedisKeys(infra).catch((e: Error) => console.error(`cleanup: Redis keys: ${e.message}`));
  })();
  return cleaning;
}

async function main(infra: BenchInfra): Promise<void> {
  const durationSec = Number(process.env.BENCH_DURATION_SEC || 5);
  if (!(durationSec > 0)) throw new Error(`BENCH_DURATION_SEC=${process.env.BENCH_DURATION_SEC}: expected seconds > 0`);
  const settings: LoadSettings = { durationSec, warmupSec: 2, connections: 64 };
  if (durationSec + settings.warmupSec >= 55)
    console.warn('warning: the session_data cookie expires after 60 s: (a) may fall back to Redis');
  const pinned = pinSelf();
  console.log(`node ${process.version} | cpu ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}`);
  console.log(
    `duration ${durationSec} s (+${settings.warmupSec} s warm-up each) | connections ${settings.connections} | pipelining 1 | get-session rows: ${benchRounds()} rounds alternating with their floors`,
  );
  console.log(pinned ? 'pinning: servers on core 0, load generator on core 1' : 'pinning: none (see warning)');
  console.log(
    'latency: autocannon (1 ms resolution), one session per connection; [wrk, rotated]: wrk, the next session on every request | CPU during the measured run, 100% = one core: srv = server, gen = load generator, pg+redis = all postgres and redis-server processes, other = everything else on the host',
  );
  const busy = await machineBusy();
  if (busy > 0.1)
    console.warn(`warning: ${Math.round(busy * 100)}% of the CPUs were busy before the run: figures are skewed`);
  await createDatabase(infra);
  const secret = id.randomSecret();
  const user = id.benchUser();
  const rotated = hasWrk();
  if (!rotated) console.warn('warning: wrk is not installed (apt-get install wrk): the rotated rows are skipped');
  const deployed = await deployedIdentity(infra, settings, secret, user, rotated);
  const floor = await startFloor(infra);
  const rows = await identityRows(infra, settings, user, rotated, deployed, floor);
  rows.push(await argon2Row(settings));
  rows.push(...(await databaseRows(infra, settings, secret, user, deployed.sessions.tokens, rotated, floor)));
  await stopChild(floor.child);
  await stopChild(deployed.worker);
  const order = [EMPTY, REDIS, PG, A, B, C, EMPTY_R, REDIS_R, PG_R, A_R, B_R, C_R];
  order.push(INTROSPECT, JWT_VERIFY, ARGON2, SIGN_IN);
  rows.sort((x, y) => order.indexOf(x.name) - order.indexOf(y.name));
  console.log(`\n${formatTable(rows)}\n\n${formatTargets(targets(rows))}`);
  const noisy = rows.filter((r) => (r.cpu?.other ?? 0) > 0.15).map((r) => `${r.name} (${r.cpu!.other.toFixed(2)})`);
  if (noisy.length) console.log(`\nwarning: other work on the host used CPU (cores) during: ${noisy.join(', ')}`);
}

const infra = benchInfra();
process.on('exit', killAllSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup(infra).finally(() => process.exit(130));
  });
main(infra)
  .then(() => cleanup(infra))
  .catch(async (error: Error) => {
    console.error(`bench failed: ${error.stack ?? error.message}`);
    await cleanup(infra);
    process.exitCode = 1;
  });

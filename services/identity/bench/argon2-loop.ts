import argon2 from 'argon2';
import { type CpuShares, cpuWindow } from './cpu';

/** What the loop reports to run.ts over IPC. */
export interface Argon2Report {
  verifies: number;
  seconds: number;
  perSecond: number;
  cpu?: CpuShares;
}

/** The service's defaults (config/defaults.ts): argon2id, 46 MiB, t=1, p=1. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 47104, timeCost: 1, parallelism: 1 } as const;

/** `concurrency` verify chains for `seconds`; counts the verifies that finished within the window. */
async function loop(hash: string, password: string, concurrency: number, seconds: number): Promise<Argon2Report> {
  const start = performance.now();
  const end = start + seconds * 1000;
  let verifies = 0;
  const chain = async () => {
    while (performance.now() < end) {
      if (!(await argon2.verify(hash, password))) throw new Error('argon2 verify failed');
      if (performance.now() <= end) verifies++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, chain));
  const elapsed = (Math.min(performance.now(), end) - start) / 1000;
  return { verifies, seconds: elapsed, perSecond: verifies / elapsed };
}

/**
 * Child of run.ts (pinned to the server core): hash once, a discarded warm-up, then the measured loop.
 * Env: BENCH_DURATION_SEC, BENCH_WARMUP_SEC, BENCH_CONNECTIONS. Sends the report and waits to be stopped,
 * so the parent can read its RSS first.
 */
async function main(): Promise<void> {
  if (!process.send) throw new Error('argon2 loop: run as a child with an IPC channel');
  const duration = Number(process.env.BENCH_DURATION_SEC ?? 10);
  const warmup = Number(process.env.BENCH_WARMUP_SEC ?? 2);
  const concurrency = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const password = 'correct horse battery staple';
  const hash = await argon2.hash(password, ARGON2_OPTIONS);
  await loop(hash, password, concurrency, warmup);
  const endWindow = cpuWindow(process.pid, false);
  const report = await loop(hash, password, concurrency, duration);
  // Stay alive (the IPC channel alone does not hold the event loop) until the parent has read the RSS and stops us.
  const hold = setInterval(() => undefined, 60_000);
  process.on('SIGTERM', () => {
    clearInterval(hold);
    process.exit(0);
  });
  process.send({ ...report, cpu: endWindow() } satisfies Argon2Report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run bench:org`: list-members of an organization with 10,000 members (under 20 ms p99 here).
 * The server runs in a child process (`org-members.js serve`: scratch database, seed, listen) so the load
 * generator does not share its event loop; the parent measures pages at random offsets sequentially (one request
 * at a time: latency) and with autocannon (10 connections: throughput, latency includes queueing).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { serveSeeded } from './org-members-server';

const MEMBERS = Number(process.env.BENCH_MEMBERS || 10_000);
const LIMIT = 100;

interface Served {
  base: string;
  token: string;
  organizationId: string;
  seedSec: number;
  plans: string[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function startServer(): Promise<{ child: ChildProcess; served: Served }> {
  const child = spawn(process.execPath, [__filename, 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.startsWith('{')) return { child, served: JSON.parse(line) };
  throw new Error('bench server exited before it was ready');
}

async function sequential(label: string, headers: Record<string, string>, urlOf: () => string): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < 2100; i++) {
    const t0 = performance.now();
    const res = await fetch(urlOf(), { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status}`);
    if (i >= 100) samples.push(performance.now() - t0); // the first 100 warm up
  }
  samples.sort((a, b) => a - b);
  const f = (q: number) => quantile(samples, q).toFixed(2);
  console.log(
    `${label}: n=${samples.length} p50 ${f(0.5)} ms, p99 ${f(0.99)} ms, max ${samples.at(-1)!.toFixed(2)} ms`,
  );
}

async function main(): Promise<void> {
  const { child, served } = await startServer();
  try {
    console.log(`seeded ${MEMBERS} members in ${served.seedSec.toFixed(1)} s`);
    const headers = { authorization: `Bearer ${served.token}` };
    const page = (offset: number) =>
      `${served.base}/organization/list-members?organizationId=${served.organizationId}&limit=${LIMIT}&offset=${offset}`;
    const check = await fetch(page(0), { headers }).then((r) => r.json());
    if (check.total !== MEMBERS || check.members.length !== LIMIT) throw new Error('unexpected first page');
    const randomPage = () => page(Math.floor(Math.random() * (MEMBERS / LIMIT)) * LIMIT);
    await sequential(`list-members, random offsets, limit ${LIMIT}, one at a time`, headers, randomPage);
    // Baseline on the same machine: the same session and membership lookups, a one-member body.
    await sequential(
      'get-active-member (baseline), one at a time',
      headers,
      () => `${served.base}/organization/get-active-member`,
    );
    for (const offset of [0, 5000, MEMBERS - LIMIT]) {
      const r = await autocannon({ url: page(offset), connections: 10, duration: 5, headers });
      console.log(
        `autocannon 10 connections 5 s, offset ${offset}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}`,
      );
    }
    console.log(served.plans.join('\n'));
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

if (process.argv[2] === 'serve') {
  serveSeeded(MEMBERS, LIMIT).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}

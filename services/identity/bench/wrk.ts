import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuWindow } from './cpu';
import type { LoadSettings, Row } from './load';
import { rssMb } from './proc';

/**
 * The rotated load shape: wrk (C, one thread on the load core) keeps `connections` connections busy and every
 * request names the next session of the list, so consecutive requests on one connection carry different cookies,
 * as requests arriving through a load balancer from many browsers do. autocannon gives each connection one
 * session for the whole run and costs the load core several times wrk's CPU per request, which caps the floor.
 */
export interface RotatedScenario {
  name: string;
  url: string;
  /** Cookie headers, one per request in turn (empty for the floor). */
  cookies: string[];
  /** Every 2xx answer must contain this text (the session's user), counted as a mismatch otherwise. */
  mustContain?: string;
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk prints its usage and exits 1 for --version: it exists when the spawn itself did not fail
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

const luaString = (s: string): string => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The script: round-robin cookies per request, a body check, and a JSON summary on stdout at the end. */
function script(scenario: RotatedScenario): string {
  const list = scenario.cookies.map(luaString).join(',\n');
  return `
local cookies = { ${list} }
local n = #cookies
local i = 0
local needle = ${scenario.mustContain ? luaString(scenario.mustContain) : 'nil'}
local mismatches = 0
request = function()
  if n == 0 then return wrk.format("GET") end
  i = i % n + 1
  return wrk.format("GET", nil, { Cookie = cookies[i] })
end
${
  scenario.mustContain
    ? `response = function(status, headers, body)
  if status >= 200 and status < 300 and not string.find(body, needle, 1, true) then mismatches = mismatches + 1 end
end`
    : ''
}
done = function(summary, latency, requests)
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"mismatches":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout, mismatches))
end
`;
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  statusErrors: number;
  timeouts: number;
  mismatches: number;
}

/** Runs wrk through `sh -c 'wrk …; times'` so its CPU time (the shell's children) is printed after it. */
function runWrk(scriptFile: string, url: string, connections: number, seconds: number) {
  // wrk inherits this process's pinning to the load core
  const command = `wrk -t1 -c${connections} -d${seconds}s --timeout 10s -s '${scriptFile}' '${url}'; times`;
  return new Promise<{ summary: WrkSummary; cpuSeconds: number }>((resolve, reject) => {
    execFile('sh', ['-c', command], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${error.message} ${stderr}`));
      const json = stdout.split('\n').find((line) => line.startsWith('{"requests"'));
      if (!json) return reject(new Error(`wrk printed no summary: ${stdout.slice(-500)}`));
      // `times`: the shell's user/sys, then its children's ("0m1.234s 0m0.567s")
      const children = stdout.trim().split('\n').at(-1) ?? '';
      const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((t, m) => t + 60 * +m[1] + +m[2], 0);
      resolve({ summary: JSON.parse(json) as WrkSummary, cpuSeconds: seconds });
    });
  });
}

function failures(s: WrkSummary): string {
  const parts = [
    s.statusErrors ? `non2xx=${s.statusErrors}` : '',
    s.connectErrors + s.readErrors + s.writeErrors ? `errors=${s.connectErrors + s.readErrors + s.writeErrors}` : '',
    s.timeouts ? `timeouts=${s.timeouts}` : '',
    s.mismatches ? `bad bodies=${s.mismatches}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/** A discarded warm-up and the measured run; fails on any error, non-2xx answer or body of another user. */
export async function measureRotated(
  scenario: RotatedScenario,
  settings: LoadSettings,
  serverPid: number | undefined,
): Promise<Row> {
  process.stderr.write(`  ${scenario.name}: warm-up ${settings.warmupSec}s, run ${settings.durationSec}s\n`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const file = join(dir, 'rotate.lua');
    writeFileSync(file, script(scenario));
    await runWrk(file, scenario.url, settings.connections, settings.warmupSec);
    const endWindow = cpuWindow(serverPid, false);
    const started = performance.now();
    const { summary, cpuSeconds } = await runWrk(file, scenario.url, settings.connections, settings.durationSec);
    const elapsed = (performance.now() - started) / 1000;
    const rss = rssMb(serverPid);
    const cpu = endWindow();
    const load = cpuSeconds / elapsed;
    const failed = failures(summary);
    if (failed) throw new Error(`${scenario.name}: ${failed}`);
    if (summary.requests === 0) throw new Error(`${scenario.name}: no request completed`);
    return {
      name: scenario.name,
      rps: summary.requests / (summary.durationUs / 1e6),
      p50: summary.p50Us / 1000,
      p99: summary.p99Us / 1000,
      rssMb: rss,
      cpu: { ...cpu, load, other: Math.max(0, cpu.other - load) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

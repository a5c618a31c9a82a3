import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU used during a measured window, in cores (1 = one core busy the whole time). */
export interface CpuShares {
  server: number;
  /** This process when it is the load generator (0 otherwise). */
  load: number;
  /** Every PostgreSQL and Redis process on the host. */
  services: number;
  /** Everything else on the host: work the bench does not control, which skews the figures. */
  other: number;
}

let ticksPerSec = 0;
const SERVICES = new Set(['postgres', 'redis-server']);

/** utime + stime of a process (all its threads) in seconds, from /proc/<pid>/stat; 0 when it is gone. */
function cpuSeconds(pid: number | string | undefined): number {
  ticksPerSec ||= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSec; // utime (14), stime (15)
  } catch {
    return 0;
  }
}

/** CPU seconds so far of each PostgreSQL / Redis process, by pid. */
function servicesSeconds(): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (SERVICES.has(readFileSync(`/proc/${pid}/comm`, 'utf8').trim())) seconds.set(pid, cpuSeconds(pid));
    } catch {
      // exited meanwhile
    }
  }
  return seconds;
}

/** Busy and total ticks of all cores so far (first line of /proc/stat). */
function hostTicks(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3] - ticks[4], total }; // minus idle and iowait
}

/** Starts a window; the returned function ends it. A process started inside the window counts from zero. */
export function cpuWindow(serverPid: number | undefined, selfIsLoad: boolean): () => CpuShares {
  const [server, self, services, host, start] = [
    cpuSeconds(serverPid),
    process.cpuUsage(),
    servicesSeconds(),
    hostTicks(),
    performance.now(),
  ];
  return () => {
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(self);
    const load = selfIsLoad ? (used.user + used.system) / 1e6 / seconds : 0;
    let servicesUsed = 0;
    for (const [pid, total] of servicesSeconds()) servicesUsed += total - (services.get(pid) ?? 0);
    const after = hostTicks();
    const hostCores = ((after.busy - host.busy) / Math.max(1, after.total - host.total)) * cpus().length;
    const shares = { server: (cpuSeconds(serverPid) - server) / seconds, load, services: servicesUsed / seconds };
    return { ...shares, other: Math.max(0, hostCores - shares.server - shares.load - shares.services) };
  };
}

/** Share of all cores busy over `ms` with work other than this process: it skews every figure. */
export async function machineBusy(ms = 1000): Promise<number> {
  const end = cpuWindow(undefined, true);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const { services, other } = end();
  return (services + other) / cpus().length;
}

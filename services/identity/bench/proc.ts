import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Core of the servers; the load generator (this process) runs on LOAD_CORE. */
const SERVER_CORE = '0';
const LOAD_CORE = '1';
const children = new Set<ChildProcess>();
let pinned = false;

/** Pins this process (all its threads) to the load core; false (with a warning) when that is not possible. */
export function pinSelf(): boolean {
  const cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  if (cores < 2) {
    console.warn(`warning: nproc=${cores}: servers and load generator run unpinned on the same core`);
    return false;
  }
  try {
    execFileSync('taskset', ['-apc', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
    pinned = true;
  } catch (error) {
    console.warn(`warning: taskset failed (${(error as Error).message.split('\n')[0]}): running unpinned`);
  }
  return pinned;
}

export interface SpawnOptions {
  env: Record<string, string>;
  ipc?: boolean;
  /**
   * Where the child's stdout goes: the bench's stderr by default, or a file (the identity server's request lines:
   * written as a deployed instance writes them, to a file the log collector reads, not through the bench).
   */
  stdoutFile?: string;
  /** Node.js flags before the script (the API's own, from its start script). */
  nodeArgs?: string[];
}

/**
 * Starts `node script` on the server core. taskset execs node, so the returned pid is the node process
 * itself (assertNodePid checks /proc/<pid>/comm before any RSS is read). Child output goes to our stderr.
 */
export function spawnServer(script: string, options: SpawnOptions): ChildProcess {
  // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile every server child
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const node = [process.execPath, ...(options.nodeArgs ?? []), ...extra, script];
  const [command, ...args] = pinned ? ['taskset', '-c', SERVER_CORE, ...node] : node;
  const stdout = options.stdoutFile ? openSync(options.stdoutFile, 'a') : 2;
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', stdout, 2, ...(options.ipc ? (['ipc'] as const) : [])],
  });
  if (typeof stdout === 'number' && stdout !== 2) closeSync(stdout);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Fails when the child's pid is not a node process (taskset did not exec), so RSS figures name the right process. */
export function assertNodePid(child: ChildProcess): void {
  const comm = readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim();
  if (comm !== 'node' && !process.execPath.endsWith(`/${comm}`))
    throw new Error(`pid ${child.pid} is "${comm}", not node: RSS would be measured on the wrong process`);
}

/** Resident set size of a live process in MB, from /proc/<pid>/status. */
export function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

export async function stopChild(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
}

/** Last resort on process exit: synchronous SIGKILL of every child still running. */
export function killAllSync(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until `ready(body)` holds; fails when the child exits first or after `timeoutMs`. */
export async function waitReady(
  child: ChildProcess,
  url: string,
  ready: (body: string) => boolean,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`child ${child.pid} exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok && ready(await response.text())) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

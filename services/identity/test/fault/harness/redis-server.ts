import { type ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from '../../setup/api-process';

/** A Redis server of the fault test's own, on a free port, that the test may flush, pause or stop. */
export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly pid: () => number;
  /** A client of its own (the caller quits it). */
  client(): Redis;
  flushAll(): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedisServer(extraArgs: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const client = () => {
    const r = new Redis(port, '127.0.0.1', { lazyConnect: false, maxRetriesPerRequest: 1 });
    r.on('error', () => undefined);
    return r;
  };
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    for (let i = 0; ; i++) {
      const r = client();
      const ok = await r.ping().then(
        () => true,
        () => false,
      );
      r.disconnect();
      if (ok) return;
      if (i > 100) throw new Error(`fault Redis did not start: ${log}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child!.pid!,
    client,
    async flushAll() {
      const r = client();
      await r.flushall();
      r.disconnect();
    },
    pause: () => child!.kill('SIGSTOP'),
    resume: () => child!.kill('SIGCONT'),
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((done) => c.once('exit', done));
      c.kill('SIGCONT');
      c.kill('SIGTERM');
      await exited;
    },
    start,
  };
}

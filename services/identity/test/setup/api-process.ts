import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { apiNodeFlags } from '../../bench/identity';
import { PUBLIC_URL, TEST_SECRET } from './app';

const root = resolve(__dirname, '../..');

export const freePort = () =>
  new Promise<number>((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });

export interface ApiProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>/api/auth */
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The real `node dist/main.js` (built by global-setup) on this run's PostgreSQL and Redis, as a container runs
 * it; instances started with the same settings share sessions, caches and limits like replicas behind a balancer.
 */
export async function spawnApi(env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['CONFIG_FILE', 'SMTP_URL']) delete base[key];
  // With the Node.js flags of the package's start script, as the image and the chart run it.
  const child = spawn(process.execPath, [...apiNodeFlags(root), 'dist/main.js'], {
    cwd: root,
    env: {
      ...base,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL,
      AUTH_SECRET: TEST_SECRET,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}/api/auth`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 300) {
      child.kill('SIGKILL');
      throw new Error(`API process did not become ready: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    base: url,
    output: () => output,
    exited,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

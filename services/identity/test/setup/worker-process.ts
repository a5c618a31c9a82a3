import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_SECRET } from './app';

export const MAIL_FROM = 'Identity Test <no-reply@identity.test>';
const root = resolve(__dirname, '../..');

export interface RunningWorker {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The real `node dist/worker.js` (built by global-setup), as `npm run worker` starts it, with its own
 * environment: nothing of the test process's database, Redis or SMTP settings leaks in unless `env` sets it.
 */
export function spawnWorker(env: Record<string, string>): RunningWorker {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['CONFIG_FILE', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'REDIS_PREFIX']) delete base[key];
  const child = spawn(process.execPath, ['dist/worker.js'], {
    cwd: root,
    env: { ...base, NODE_ENV: 'test', AUTH_SECRET: TEST_SECRET, MAIL_FROM, LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

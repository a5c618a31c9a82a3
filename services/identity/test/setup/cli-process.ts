import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { TEST_SECRET } from './app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node dist/cli.js …` against this run's database and Redis (dist is built by the global setup); never throws. */
export function runCli(...args: string[]): Promise<CliResult> {
  return runCliWith({}, ...args);
}

/** runCli with these variables changed; an undefined value removes the variable. */
export async function runCliWith(changes: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    REDIS_URL: process.env.TEST_REDIS_URL,
    REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
    AUTH_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    ...changes,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/cli.js', ...args], {
      cwd: ROOT,
      env,
      timeout: 20000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_SECRET } from './app';

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
export function runCliWith(changes: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  return runCliProcess({ changes, args });
}

/** runCli with `input` on its standard input (a pipe, closed after it). */
export function runCliWithInput(input: string, ...args: string[]): Promise<CliResult> {
  return runCliProcess({ changes: {}, args, input });
}

function cliEnv(changes: Record<string, string | undefined>): Record<string, string> {
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
  return env as Record<string, string>;
}

function runCliProcess(run: {
  changes: Record<string, string | undefined>;
  args: string[];
  input?: string;
}): Promise<CliResult> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['dist/cli.js', ...run.args],
      { cwd: ROOT, env: cliEnv(run.changes), timeout: 20000 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        done({ code: error ? (typeof code === 'number' ? code : -1) : 0, stdout, stderr });
      },
    );
    // Standard input is a pipe closed at once (or after `input`): a command that reads it never waits for a test.
    child.stdin?.end(run.input);
  });
}

/**
 * The CLI on a terminal of its own (a pseudo-terminal from util-linux `script`), as an operator runs it: each time
 * the terminal shows `answers[i][0]`, the test types `answers[i][1]` and Enter. `output` is everything the terminal
 * showed, echoed keystrokes included.
 */
export function runCliOnTerminal(
  args: string[],
  answers: Array<[RegExp, string]>,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, 'dist/cli.js', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((done, fail) => {
    const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
      cwd: ROOT,
      env: cliEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`no answer from the CLI on a terminal; it showed:\n${output}`));
    }, 20000);
    let output = '';
    let next = 0;
    let seen = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Type an answer only once its prompt is on the screen: the terminal echoes what is typed before the
      // program turns echo off, which would show the password whatever the program does.
      while (next < answers.length && answers[next][0].test(output.slice(seen))) {
        seen = output.length;
        child.stdin.write(`${answers[next][1]}\r`);
        next++;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      done({ code, output });
    });
  });
}

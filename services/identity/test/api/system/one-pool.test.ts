import { Client } from 'pg';
import { loadConfig } from '../../../src/config';
import { type AppContext, createContext } from '../../../src/context';
import { pendingMigrations } from '../../../src/db/pending-migrations';
import { TEST_SECRET } from '../../setup/app';
import { scratchDatabase } from '../../setup/scratch-database';

/**
 * A started process holds one PostgreSQL pool, its own: the migrations run at start (MIGRATE_ON_START) go through a
 * connection of their own that is closed once they ran, and every connection left open is the pool's.
 */
const databaseUrl = scratchDatabase('one_pool');
let ctx: AppContext | undefined;
afterAll(() => ctx?.close());

it('migrates an empty database at start, then keeps only the pool it reports', async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl(),
    REDIS_URL: process.env.TEST_REDIS_URL,
    REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
    AUTH_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
  });
  ctx = await createContext(config, { migrate: true, logger: { info() {}, warn() {}, error() {} } });
  expect(await pendingMigrations(ctx.sql)).toEqual([]);

  const admin = new Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    const database = new URL(databaseUrl()).pathname.slice(1);
    const connections = async () =>
      (
        await admin.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [
          database,
        ])
      ).rows[0].open;
    // A closed connection's server process can take a moment to leave pg_stat_activity.
    let open = await connections();
    for (let i = 0; i < 20 && open !== ctx.pool.totalCount; i++) {
      await new Promise((r) => setTimeout(r, 100));
      open = await connections();
    }
    expect(open).toBeGreaterThan(0);
    expect(open).toBe(ctx.pool.totalCount);
  } finally {
    await admin.end();
  }
});

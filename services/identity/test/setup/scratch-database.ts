import { Client, type Pool } from 'pg';
import { runMigrations } from '../../src/db/migrate';
import { createPool } from '../../src/db/pool';
import { type Sql, sqlFor } from '../../src/shared/sql';

/**
 * An empty database of its own for one test file (`<run database>_<suffix>`), created before its tests and dropped
 * after them, for tests that run migrations from nothing. Returns the getter of its URL (set once created).
 */
export function scratchDatabase(suffix: string): () => string {
  const dbName = `${process.env.TEST_DATABASE_NAME}_${suffix}`;
  const admin = new Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  let url = '';
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    const u = new URL(process.env.TEST_ADMIN_DATABASE_URL!);
    u.pathname = `/${dbName}`;
    url = u.toString();
  });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });
  return () => url;
}

/**
 * The same, with every migration run and a query handle on it (for tests of SQL written against the real schema).
 * Returns the getters of its URL and of its `Sql` (set once migrated).
 */
export function migratedScratchDatabase(suffix: string): { url: () => string; sql: () => Sql } {
  const url = scratchDatabase(suffix);
  let pool: Pool | undefined;
  let sql: Sql | undefined;
  beforeAll(async () => {
    await runMigrations({ url: url() });
    pool = createPool({ url: url() });
    sql = sqlFor(pool);
  });
  afterAll(() => pool?.end());
  return { url, sql: () => sql! };
}

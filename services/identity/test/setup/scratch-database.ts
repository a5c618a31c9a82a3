import { Client } from 'pg';

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

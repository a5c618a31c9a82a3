import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../src/db/migrate';
import { resolveServices } from './services';

/**
 * One database and one Redis key prefix per test run, so concurrent runs (two developers, CI) never see each
 * other's data. Test files share them and use unique emails; teardown drops both.
 */
export default async function globalSetup(): Promise<void> {
  // Tests that run the real processes (the API on the embedded default, the mail worker) start dist/: build it
  // once here, before any test file runs, so no two files rebuild it under each other.
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: resolve(__dirname, '../..'), stdio: 'inherit' });
  const services = await resolveServices();
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dbName = `identity_test_${runId}`;
  const admin = new Client({ connectionString: services.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(services.databaseUrl);
  url.pathname = `/${dbName}`;
  await runMigrations({ url: url.toString() });

  process.env.TEST_DATABASE_URL = url.toString();
  process.env.TEST_ADMIN_DATABASE_URL = services.databaseUrl;
  process.env.TEST_DATABASE_NAME = dbName;
  process.env.TEST_REDIS_URL = services.redisUrl;
  process.env.TEST_REDIS_PREFIX = `test:${runId}:`;
  (globalThis as { __stopServices?: () => Promise<void> }).__stopServices = services.stop;
}

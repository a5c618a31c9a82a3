import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource } from '../../src/db/data-source';
import { resolveServices } from './services';

/**
 * One database and one Redis key prefix per test run, so concurrent runs (two developers, CI) never see each
 * other's data. Test files share them and use unique emails; teardown drops both.
 */
export default async function globalSetup(): Promise<void> {
  const services = await resolveServices();
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dbName = `identity_test_${runId}`;
  const admin = new Client({ connectionString: services.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(services.databaseUrl);
  url.pathname = `/${dbName}`;
  const dataSource = createDataSource({ url: url.toString() });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'all' });
  await dataSource.destroy();

  process.env.TEST_DATABASE_URL = url.toString();
  process.env.TEST_ADMIN_DATABASE_URL = services.databaseUrl;
  process.env.TEST_DATABASE_NAME = dbName;
  process.env.TEST_REDIS_URL = services.redisUrl;
  process.env.TEST_REDIS_PREFIX = `test:${runId}:`;
  (globalThis as { __stopServices?: () => Promise<void> }).__stopServices = services.stop;
}

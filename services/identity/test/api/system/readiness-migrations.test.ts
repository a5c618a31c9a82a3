import { createDataSource } from '../../../src/db/data-source';
import { startTestApp, type TestApp } from '../../setup/app';
import { scratchDatabase } from '../../setup/scratch-database';

/**
 * Readiness holds an instance out of the load balancer until every migration it knows has run on its database
 * (an instance of a new release started before its migrate job finished): "migrations" reports it.
 */
const databaseUrl = scratchDatabase('readiness_migrations');
let t: TestApp | undefined;
afterAll(() => t?.close());

it('answers 503 with migrations failing while one is pending, and 200 once it has run', async () => {
  const ds = createDataSource({ url: databaseUrl() });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
    await ds.undoLastMigration({ transaction: 'all' });
    t = await startTestApp({}, { DATABASE_URL: databaseUrl() });
    const ready = () => t!.app.inject({ method: 'GET', url: '/api/auth/health/ready' });

    const pending = await ready();
    expect([pending.statusCode, pending.json()]).toEqual([
      503,
      { status: 'not-ready', checks: { database: 'ok', migrations: 'failing', redis: 'ok' } },
    ]);

    await ds.runMigrations({ transaction: 'all' });
    const migrated = await ready();
    expect([migrated.statusCode, migrated.json()]).toEqual([
      200,
      { status: 'ready', checks: { database: 'ok', migrations: 'ok', redis: 'ok' } },
    ]);
  } finally {
    await ds.destroy();
  }
});

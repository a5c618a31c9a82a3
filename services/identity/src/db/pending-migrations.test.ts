import { scratchDatabase } from '../../test/setup/scratch-database';
import { sqlFor } from '../shared/sql';
import { createDataSource } from './data-source';
import { MIGRATIONS } from './migrations';
import { migrationName, pendingMigrations } from './pending-migrations';
import { createPool } from './pool';

/**
 * Which checked-in migrations a database lacks, read with plain SQL from the table TypeORM records them in: it must
 * name them exactly as TypeORM does, or readiness and `migrate:status` would disagree with `migrate`.
 */
describe('pendingMigrations', () => {
  const databaseUrl = scratchDatabase('pending_migrations');

  it('names every migration on an empty database, the ones left after a partial run, none after a full one', async () => {
    const pool = createPool({ url: databaseUrl() });
    const sql = sqlFor(pool);
    const ds = createDataSource({ url: databaseUrl() });
    await ds.initialize();
    try {
      const all = MIGRATIONS.map(migrationName);
      expect(all).toHaveLength(MIGRATIONS.length);
      expect(new Set(all).size).toBe(all.length);
      // No `migrations` table yet: everything is pending.
      expect(await pendingMigrations(sql)).toEqual(all);

      await ds.runMigrations({ transaction: 'all' });
      const recorded = await sql.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      expect(recorded.map((r) => r.name)).toEqual(all);
      expect(await pendingMigrations(sql)).toEqual([]);

      await ds.undoLastMigration({ transaction: 'all' });
      await ds.undoLastMigration({ transaction: 'all' });
      expect(await ds.showMigrations()).toBe(true);
      expect(await pendingMigrations(sql)).toEqual(all.slice(-2));
    } finally {
      await ds.destroy();
      await pool.end();
    }
  });

  it("takes a migration's own `name`, else its class name, as TypeORM does", () => {
    class Named1700000000000 {
      name = 'Renamed1700000000000';
      async up() {}
      async down() {}
    }
    class Unnamed1700000000001 {
      async up() {}
      async down() {}
    }
    expect([migrationName(Named1700000000000), migrationName(Unnamed1700000000001)]).toEqual([
      'Renamed1700000000000',
      'Unnamed1700000000001',
    ]);
  });
});

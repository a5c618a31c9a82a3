import { createDataSource } from '../../src/db/data-source';
import { scratchDatabase } from '../setup/scratch-database';

/** The checked-in migrations and the entities describe the same schema (TypeORM would generate no new migration). */
describe('migrations ↔ entities', () => {
  const databaseUrl = scratchDatabase('migrations');

  it('leaves nothing for the schema builder to change after all migrations ran, and reverts cleanly', async () => {
    const ds = createDataSource({ url: databaseUrl() });
    await ds.initialize();
    try {
      expect(await ds.showMigrations()).toBe(true);
      await ds.runMigrations({ transaction: 'all' });
      expect(await ds.showMigrations()).toBe(false);
      const pending = await ds.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      for (const _ of ds.migrations) await ds.undoLastMigration({ transaction: 'all' });
      const tables = await ds.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('migrations', 'typeorm_metadata')",
      );
      expect(tables).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });

  it('indexes every lookup the routes make', async () => {
    const ds = createDataSource({ url: databaseUrl() });
    await ds.initialize();
    try {
      await ds.runMigrations({ transaction: 'all' });
      const rows: Array<{ indexdef: string }> = await ds.query(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'",
      );
      const defs = rows.map((r) => r.indexdef);
      for (const [table, column] of [
        ['users', 'email'],
        ['sessions', 'token'],
        ['sessions', 'user_id'],
        ['accounts', 'user_id'],
        ['accounts', 'provider_id, account_id'],
        ['verifications', 'identifier'],
        ['organizations', 'slug'],
        ['members', 'organization_id, user_id'],
        ['members', 'organization_id, created_at, id'],
        ['members', 'user_id'],
        ['invitations', 'organization_id'],
        ['teams', 'organization_id'],
        ['team_members', 'team_id, user_id'],
      ])
        expect([table, column, defs.some((d) => d.includes(`ON public.${table} USING btree (${column})`))]).toEqual([
          table,
          column,
          true,
        ]);
      // list-users searches the lowercase email and the folded name through trigram indexes.
      for (const column of ['email', 'name_fold'])
        expect(defs).toContain(
          `CREATE INDEX users_${column}_trgm_idx ON public.users USING gin (${column} gin_trgm_ops)`,
        );
      // one pending invitation per organization and (lowercase-stored) email.
      expect(defs).toContain(
        "CREATE UNIQUE INDEX invitations_pending_email_key ON public.invitations USING btree (organization_id, email) WHERE (status = 'pending'::text)",
      );
    } finally {
      await ds.destroy();
    }
  });
});

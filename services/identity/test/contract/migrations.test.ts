import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../src/db/data-source';
import { runMigrations } from '../../src/db/migrate';
import { MIGRATIONS } from '../../src/db/migrations';
import { DropTypeormMetadata1796200000100 } from '../../src/db/migrations/1796200000100-drop-typeorm-metadata';
import { migrationName } from '../../src/db/pending-migrations';
import type { SchemaDescription } from '../setup/schema-description';
import { describeDatabase, readSnapshot, snapshotText } from '../setup/schema-snapshot';
import { scratchDatabase } from '../setup/scratch-database';

/**
 * The migrations are the schema's one source (docs/decisions/0015-schema-source.md): what they make, read back from
 * PostgreSQL's catalogs, is the committed src/db/schema.snapshot.txt, and each of them reverts to the schema it found.
 */

/** What a migration's `down` leaves on purpose: extensions other objects may use (their migrations say so). */
const LEFT_ON_REVERT: Record<string, string[]> = {
  AdminUserIndexes1795300000100: ['extension pg_trgm'],
  UserSearchFold1796100000100: ['extension unaccent'],
};

const pick = (description: SchemaDescription, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => k in description).map((k) => [k, description[k]]));

/** The objects two descriptions disagree on, each with both versions (null: absent). */
const differences = (found: SchemaDescription, expected: SchemaDescription) =>
  Object.fromEntries(
    [...new Set([...Object.keys(found), ...Object.keys(expected)])]
      .filter((key) => found[key] !== expected[key])
      .map((key) => [key, { found: found[key] ?? null, expected: expected[key] ?? null }]),
  );

describe('the migrations', () => {
  const databaseUrl = scratchDatabase('migrations');
  const entitiesEraUrl = scratchDatabase('migrations_entities');
  let empty: SchemaDescription;
  let migrated: SchemaDescription;

  beforeAll(async () => {
    empty = await describeDatabase(databaseUrl());
    await runMigrations({ url: databaseUrl() });
    migrated = await describeDatabase(databaseUrl());
  });

  // A failure shows the lines that differ: after a migration that changes the schema, `npm run schema:snapshot`
  // writes the snapshot again, and the snapshot's diff is reviewed and committed with the migration.
  it('make the schema of src/db/schema.snapshot.txt (npm run schema:snapshot rewrites it)', () => {
    expect(snapshotText(migrated)).toBe(readSnapshot());
  });

  it('indexes every lookup the routes make', async () => {
    const client = new Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const rows = (await client.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'")).rows;
      const defs = rows.map((r: { indexdef: string }) => r.indexdef);
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
      await client.end();
    }
  });

  it('bring a database migrated while the schema had TypeORM entities to the same schema (typeorm_metadata dropped)', async () => {
    const all = createDataSource({ url: entitiesEraUrl() });
    const before = new DataSource({
      ...all.options,
      migrations: MIGRATIONS.filter((m) => m !== DropTypeormMetadata1796200000100),
    } as typeof all.options);
    await before.initialize();
    try {
      await before.runMigrations({ transaction: 'all' });
      // What TypeORM's runner made for the entities' generated column, and what migration 1795500000100 wrote there.
      await before.query(
        `CREATE TABLE "typeorm_metadata" ("type" character varying NOT NULL, "database" character varying,
           "schema" character varying, "table" character varying, "name" character varying, "value" text)`,
      );
      await before.query(
        `INSERT INTO "typeorm_metadata" VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'users',
           'name_fold', 'search_fold("name")')`,
      );
    } finally {
      await before.destroy();
    }
    expect(await runMigrations({ url: entitiesEraUrl() })).toEqual(['DropTypeormMetadata1796200000100']);
    expect(await describeDatabase(entitiesEraUrl())).toEqual(migrated);
  });

  // Last in this block: it takes the database back to empty.
  it('revert one by one through the runner to the empty schema, but the runner’s table and the kept extensions', async () => {
    const ds = createDataSource({ url: databaseUrl() });
    await ds.initialize();
    try {
      expect(await ds.showMigrations()).toBe(false);
      for (const _ of MIGRATIONS) await ds.undoLastMigration({ transaction: 'all' });
      expect(await ds.showMigrations()).toBe(true);
    } finally {
      await ds.destroy();
    }
    const kept = ['table migrations', 'sequence migrations_id_seq', ...Object.values(LEFT_ON_REVERT).flat()];
    expect(await describeDatabase(databaseUrl())).toEqual({ ...empty, ...pick(migrated, kept) });
  });
});

describe('each migration', () => {
  const databaseUrl = scratchDatabase('migration_steps');

  it('reverts to exactly the schema it found, and runs again after its revert', async () => {
    const ds = createDataSource({ url: databaseUrl() });
    await ds.initialize();
    const runner = ds.createQueryRunner();
    // One transaction per step, as the runner runs them (a migration may LOCK a table).
    const step = async (work: () => Promise<void>) => {
      await runner.startTransaction();
      await work();
      await runner.commitTransaction();
    };
    try {
      let before = await describeDatabase(databaseUrl());
      for (const Migration of MIGRATIONS) {
        const migration = new Migration();
        const name = migrationName(Migration);
        await step(() => migration.up(runner));
        const after = await describeDatabase(databaseUrl());
        await step(() => migration.down(runner));
        const reverted = await describeDatabase(databaseUrl());
        const expected = { ...before, ...pick(after, LEFT_ON_REVERT[name] ?? []) };
        expect({ reverted: name, differences: differences(reverted, expected) }).toEqual({
          reverted: name,
          differences: {},
        });
        await step(() => migration.up(runner));
        const again = await describeDatabase(databaseUrl());
        expect({ ranAgain: name, differences: differences(again, after) }).toEqual({ ranAgain: name, differences: {} });
        before = after;
      }
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
      await ds.destroy();
    }
  }, 60_000);
});

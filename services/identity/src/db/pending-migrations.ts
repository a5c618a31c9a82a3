import type { MigrationInterface } from 'typeorm';
import type { Sql } from '../shared/sql';
import { MIGRATIONS } from './migrations';

/**
 * The name a migration is recorded under in the `migrations` table: its `name` property, else its class name (how
 * TypeORM's MigrationExecutor names the instances it runs).
 */
export function migrationName(migration: new () => Partial<MigrationInterface>): string {
  const instance = new migration();
  return instance.name ?? instance.constructor.name;
}

const NAMES = MIGRATIONS.map(migrationName);

/**
 * The checked-in migrations this database has not run yet, in order: every one when the `migrations` table does
 * not exist yet (an empty database). Plain SQL on the service's pool; no TypeORM connection is opened for it.
 */
export async function pendingMigrations(sql: Sql): Promise<string[]> {
  let applied: Set<string>;
  try {
    applied = new Set((await sql.query<{ name: string }>('SELECT name FROM migrations')).map((r) => r.name));
  } catch (error) {
    if ((error as { code?: string })?.code === UNDEFINED_TABLE) return [...NAMES];
    throw error;
  }
  return NAMES.filter((name) => !applied.has(name));
}

/** PostgreSQL undefined_table. */
const UNDEFINED_TABLE = '42P01';

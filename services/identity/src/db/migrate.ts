import { createDataSource } from './data-source';
import type { PoolOptions } from './pool';

/**
 * Applies the pending migrations in one transaction (all or none) through a TypeORM data source opened for it and
 * closed afterwards, so that a running process holds only its own pool. Returns the names of those applied.
 */
export async function runMigrations(options: PoolOptions): Promise<string[]> {
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'all' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

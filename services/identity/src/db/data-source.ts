import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { type PoolOptions, poolSettings } from './pool';

/**
 * A TypeORM data source that runs the checked-in migrations and nothing else (db/migrate.ts and the migration
 * tests): no entities, since queries at run time go through the service's own pool (db/pool.ts) and the migrations
 * are the schema's one source (docs/decisions/0015-schema-source.md). It runs under the same bounds as that pool,
 * the statement bound included.
 */
export function createDataSource(options: PoolOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    migrations: MIGRATIONS,
    logging: false,
    poolErrorHandler: options.onPoolError ?? (() => {}),
    extra: poolSettings(options),
  });
}

import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming';
import { type PoolOptions, poolSettings } from './pool';

/**
 * A TypeORM data source, for the checked-in migrations only (db/migrate.ts, the migration tests and TypeORM's CLI):
 * queries at run time go through the service's own pool (db/pool.ts). It runs under the same bounds as that pool,
 * the statement bound included. `synchronize` is off: the schema comes from the migrations.
 */
export function createDataSource(options: PoolOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolErrorHandler: options.onPoolError ?? (() => {}),
    extra: poolSettings(options),
  });
}

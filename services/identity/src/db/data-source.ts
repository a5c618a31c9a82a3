import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming';

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  /** Bounded waits so a hung database gives clean errors instead of stuck requests (SECURITY.md faults). */
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/** The one PostgreSQL data source; `synchronize` is off: the schema comes from the checked-in migrations. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      statement_timeout: options.statementTimeoutMs ?? 10000,
      application_name: 'identity',
    },
  });
}

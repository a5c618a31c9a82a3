import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DATABASE_DEFAULTS } from '../config/defaults';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming';

/** How long the client waits for an answer after PostgreSQL's own statement bound has passed. */
export const QUERY_TIMEOUT_GRACE_MS = 1000;

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  /** Longest wait for a connection: a free one of the pool, or a new one (connect and start-up). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL cancels a statement running longer (statement_timeout); when the server cannot answer at all
   * (stopped with the socket open, hung) the client gives up QUERY_TIMEOUT_GRACE_MS later. Either way the
   * query fails, and the request answers 503 (errors/handler.ts), instead of waiting as long as the outage.
   */
  queryTimeoutMs?: number;
  /**
   * Told when a connection breaks while idle in the pool (the server restarted, the network dropped it): the pool
   * has dropped it and opens another on demand. Without a listener such an error would end the process.
   */
  onPoolError?: (error: Error) => void;
}

/** The one PostgreSQL data source; `synchronize` is off: the schema comes from the checked-in migrations. */
export function createDataSource(options: DataSourceOptions): DataSource {
  const queryTimeoutMs = options.queryTimeoutMs ?? DATABASE_DEFAULTS.queryTimeoutMs;
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
    extra: {
      max: options.poolSize ?? DATABASE_DEFAULTS.poolSize,
      // pg-pool uses it for both: opening a connection, and waiting for a free one when all are busy.
      connectionTimeoutMillis: options.connectTimeoutMs ?? DATABASE_DEFAULTS.connectTimeoutMs,
      statement_timeout: queryTimeoutMs,
      query_timeout: queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS,
      application_name: 'identity',
    },
  });
}

import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DATABASE_DEFAULTS } from '../config/defaults';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming';
import { createQueryDeadline } from './query-deadline';

/**
 * How long after PostgreSQL's own statement bound the client gives up on a connection that has not answered: it
 * closes it between half of this and all of it later (db/query-deadline.ts sweeps twice per grace period).
 */
export const QUERY_TIMEOUT_GRACE_MS = 1000;

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  /** Longest wait for a connection: a free one of the pool, or a new one (connect and start-up). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL cancels a statement running longer (statement_timeout); when the server cannot answer at all
   * (stopped with the socket open, hung) the client closes the connection within QUERY_TIMEOUT_GRACE_MS after. Either way the
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
  const deadline = createQueryDeadline({
    limitMs: queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS / 2,
    sweepMs: QUERY_TIMEOUT_GRACE_MS / 2,
  });
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
      // No pg `query_timeout`: it costs a timer per query; the deadline's connection class bounds a hung server.
      Client: deadline.Client,
      application_name: 'identity',
    },
  });
}

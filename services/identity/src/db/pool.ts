import { Pool, type PoolConfig } from 'pg';
import { DATABASE_DEFAULTS } from '../config/defaults';
import { createQueryDeadline } from './query-deadline';

/**
 * How long after PostgreSQL's own statement bound the client gives up on a connection that has not answered: it
 * closes it between half of this and half of it plus one sweep later (db/query-deadline.ts).
 */
export const QUERY_TIMEOUT_GRACE_MS = 1000;
/** How often the query deadline looks for overdue answers. */
const SWEEP_MS = 100;
/**
 * A request's database work ends this long before the request's deadline (shared/request-deadline.ts): two sweeps,
 * so the connection is closed, and the 503 written, before the deadline itself.
 */
export const REQUEST_DEADLINE_MARGIN_MS = 2 * SWEEP_MS;

export interface PoolOptions {
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

/**
 * The process's one PostgreSQL pool, through which every query at run time goes (shared/sql.ts). It connects on
 * demand: creating it opens nothing.
 */
export function createPool(options: PoolOptions): Pool {
  // Pipeline mode: a statement is sent without waiting for the answer to the one before it on the same
  // connection, so a transaction's BEGIN and its independent statements share round trips (shared/sql.ts). A
  // connection serves one caller at a time either way; only a transaction sends several statements at once.
  const pool = new Pool({ connectionString: options.url, ...poolSettings(options), pipeline: true });
  pool.on('error', options.onPoolError ?? (() => {}));
  return pool;
}

/** The pool's bounds and connection class; the migrations' data source (db/data-source.ts) runs under them too. */
export function poolSettings(options: PoolOptions): PoolConfig {
  const queryTimeoutMs = options.queryTimeoutMs ?? DATABASE_DEFAULTS.queryTimeoutMs;
  const deadline = createQueryDeadline({
    limitMs: queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS / 2,
    sweepMs: SWEEP_MS,
    marginMs: REQUEST_DEADLINE_MARGIN_MS,
  });
  return {
    max: options.poolSize ?? DATABASE_DEFAULTS.poolSize,
    // pg-pool uses it for both: opening a connection, and waiting for a free one when all are busy.
    connectionTimeoutMillis: options.connectTimeoutMs ?? DATABASE_DEFAULTS.connectTimeoutMs,
    statement_timeout: queryTimeoutMs,
    // No pg `query_timeout`: it costs a timer per query; the deadline's connection class bounds a hung server.
    Client: deadline.Client,
    application_name: 'identity',
  };
}

import type { Pool, PoolClient } from 'pg';
import { type Acquirer, createAcquirer } from '../db/acquire';
import { REQUEST_DEADLINE_MARGIN_MS } from '../db/pool';
import { isDatabaseUnavailable } from '../db/unavailable';
import { TEXT_TIMESTAMPTZ } from './pg-time';

export interface QueryOptions {
  /** timestamptz columns as PostgreSQL's text, not Dates (`isoFromPg`): for pages of many rows. */
  timestamptzAsText?: boolean;
}

/** Parameterised queries on the service's pg pool (db/pool.ts): the cheapest path for hot, hand-written SQL. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /**
   * The same, as a named prepared statement: PostgreSQL parses and plans it once per connection. For the hot
   * queries only (get-session); `name` must be unique per distinct `text`.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls `hook` once what was written so far is committed: after the COMMIT of the transaction (never on a
   * rollback), or at once outside a transaction (each statement commits by itself). It must not throw: the
   * outbox uses it to wake its relay.
   */
  afterCommit(hook: () => void): void;
}

const onClient = (client: PoolClient): Omit<Sql, 'transaction' | 'afterCommit'> => ({
  async query<T>(text: string, params?: unknown[], options?: QueryOptions) {
    const result = options?.timestamptzAsText
      ? await client.query({ text, values: params, types: TEXT_TIMESTAMPTZ })
      : await client.query(text, params);
    return result.rows as T[];
  },
  async prepared<T>(name: string, text: string, values: unknown[]) {
    const result = await client.query({ name, text, values });
    return result.rows as T[];
  },
});

/**
 * The `Sql` of the process's pool (db/pool.ts). Each statement and each transaction takes a connection for itself
 * and gives it back. The wait for one ends at the pool's own bound or at the current request's deadline
 * (shared/request-deadline.ts), whichever comes first, and a connection that comes free goes to the caller whose
 * wait ends first (db/acquire.ts).
 */
export function sqlFor(pool: Pool, acquirer: Acquirer = acquirerFor(pool)): Sql {
  const { acquire } = acquirer;
  /** Runs `use` on a connection of the pool; a connection that broke under it is dropped, not reused. */
  const withConnection = async <T>(use: (client: PoolClient) => Promise<T>): Promise<T> => {
    const lease = await acquire();
    let broken: Error | undefined;
    try {
      return await use(lease.client);
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      lease.release(broken);
    }
  };
  return {
    query: (text, params, options) => withConnection((client) => onClient(client).query(text, params, options)),
    prepared: (name, text, values) => withConnection((client) => onClient(client).prepared(name, text, values)),
    afterCommit: (hook) => hook(),
    async transaction(work) {
      const { client, release } = await acquire();
      // The pool's connections are in pipeline mode (db/pool.ts): BEGIN goes out with the work's first statement
      // instead of costing a round trip of its own. Should it fail, so does that statement.
      const begun = client.query('BEGIN');
      begun.catch(() => {});
      let broken: Error | undefined;
      const hooks: Array<() => void> = [];
      let result: Awaited<ReturnType<typeof work>>;
      try {
        const tx: Sql = {
          ...onClient(client),
          transaction: (inner) => inner(tx),
          afterCommit: (hook) => hooks.push(hook),
        };
        result = await work(tx);
        await begun;
        await client.query('COMMIT');
      } catch (error) {
        // A lost or unanswered connection is closed instead (PostgreSQL rolls back what it had): a ROLLBACK on
        // it would only wait out another timeout. A connection that broke is also refused by the pool on its
        // own: pg marks it unusable, and its 'error' is heard by the connection itself (db/query-deadline.ts).
        if (isDatabaseUnavailable(error)) broken = error as Error;
        else await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        release(broken);
      }
      // After the commit and the release: a hook that fails cannot make a committed change look failed.
      for (const hook of hooks) {
        try {
          hook();
        } catch {
          // the hook's own concern (a relay wake-up retried by its poll)
        }
      }
      return result;
    },
  };
}

/** What hands out `pool`'s connections (db/acquire.ts), with the pool's own bounds. */
export function acquirerFor(pool: Pool): Acquirer {
  return createAcquirer(pool, {
    size: pool.options.max,
    waitMs: pool.options.connectionTimeoutMillis || Number.POSITIVE_INFINITY,
    marginMs: REQUEST_DEADLINE_MARGIN_MS,
  });
}

/** PostgreSQL unique_violation. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23505';

/** PostgreSQL foreign_key_violation (a referenced row is gone). */
export const isForeignKeyViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23503';

/** For LIKE … ESCAPE '\' (PostgreSQL's default escape): `%`, `_` and the escape character match literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

import type { Pool, PoolClient } from 'pg';
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

const onClient = (client: Pool | PoolClient): Omit<Sql, 'transaction' | 'afterCommit'> => ({
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

export function sqlFor(pool: Pool): Sql {
  return {
    ...onClient(pool),
    afterCommit: (hook) => hook(),
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: its connection breaking (PostgreSQL restarted or
      // stopped, the network gone) would emit an unhandled 'error' and end the process. The query in flight
      // fails with that error on its own; here it only marks the connection as not to be reused.
      let broken: unknown;
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      const hooks: Array<() => void> = [];
      let result: Awaited<ReturnType<typeof work>>;
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          ...onClient(client),
          transaction: (inner) => inner(tx),
          afterCommit: (hook) => hooks.push(hook),
        };
        result = await work(tx);
        await client.query('COMMIT');
      } catch (error) {
        // A lost or unanswered connection is closed instead (PostgreSQL rolls back what it had): a ROLLBACK on
        // it would only wait out another timeout.
        if (isDatabaseUnavailable(error)) broken ??= error;
        else if (!broken) await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(broken ? (broken as Error) : undefined);
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

/** PostgreSQL unique_violation. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23505';

/** PostgreSQL foreign_key_violation (a referenced row is gone). */
export const isForeignKeyViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23503';

/** For LIKE … ESCAPE '\' (PostgreSQL's default escape): `%`, `_` and the escape character match literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

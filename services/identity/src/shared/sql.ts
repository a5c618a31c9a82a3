import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { TEXT_TIMESTAMPTZ } from './pg-time';

/** A parameterised query on the pg pool TypeORM manages: the cheapest path for hot, hand-written SQL. */
export interface QueryOptions {
  /** timestamptz columns as PostgreSQL's text, not Dates (`isoFromPg`): for pages of many rows. */
  timestamptzAsText?: boolean;
}

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

export function sqlFor(dataSource: DataSource): Sql {
  // The pool exists only after initialize(); look it up per call so wiring can happen before connecting.
  const pool = (): Pool => (dataSource.driver as unknown as { master: Pool }).master;
  return {
    query: (text, params, options) => onClient(pool()).query(text, params, options),
    prepared: (name, text, params) => onClient(pool()).prepared(name, text, params),
    afterCommit: (hook) => hook(),
    async transaction(work) {
      const client = await pool().connect();
      const hooks: Array<() => void> = [];
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          ...onClient(client),
          transaction: (inner) => inner(tx),
          afterCommit: (hook) => hooks.push(hook),
        };
        const result = await work(tx);
        await client.query('COMMIT');
        for (const hook of hooks) hook();
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** PostgreSQL unique_violation. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23505';

/** For LIKE … ESCAPE '\' (PostgreSQL's default escape): `%`, `_` and the escape character match literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

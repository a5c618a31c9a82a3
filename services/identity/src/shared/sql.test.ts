import type { Pool } from 'pg';
import { createPool } from '../db/pool';
import { isDatabaseUnavailable } from '../db/unavailable';
import { type Sql, sqlFor } from './sql';

/**
 * A transaction's connection is checked out of the pool, out of reach of the pool's own error listener. Killed while
 * idle in the transaction (PostgreSQL's fast shutdown, pg_terminate_backend: "terminating connection due to
 * administrator command"), it must fail that transaction, not the process, and the pool must serve on.
 */
describe('sql.transaction on a connection that is killed', () => {
  let pool: Pool;
  let sql: Sql;
  /** Another connection, that terminates the transaction's. */
  let killer: Pool;
  beforeAll(() => {
    pool = createPool({ url: process.env.TEST_DATABASE_URL!, poolSize: 2 });
    killer = createPool({ url: process.env.TEST_DATABASE_URL!, poolSize: 1 });
    sql = sqlFor(pool);
  });
  afterAll(() => Promise.all([pool?.end(), killer?.end()]));

  it('fails the transaction with a database-unavailable error; the next one gets a new connection', async () => {
    const pids: number[] = [];
    const failure = await sql
      .transaction(async (tx) => {
        const [{ pid }] = await tx.query<{ pid: number }>('select pg_backend_pid() as pid');
        pids.push(pid);
        await killer.query('select pg_terminate_backend($1)', [pid]);
        // The server's FATAL reaches the client while no query of it runs: an 'error' event on the client.
        await new Promise((r) => setTimeout(r, 200));
        await tx.query('select 1');
      })
      .catch((error) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    const [{ pid }] = await sql.transaction((tx) => tx.query<{ pid: number }>('select pg_backend_pid() as pid'));
    expect(pid).not.toBe(pids[0]);
    expect(await sql.query('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('a query that fails for its own reasons still rolls back and keeps the connection', async () => {
    const failure = await sql
      .transaction(async (tx) => {
        await tx.query('select 1/0');
      })
      .catch((error) => error);
    expect([failure.code, isDatabaseUnavailable(failure)]).toEqual(['22012', false]);
    expect(await sql.query('select 2 as two')).toEqual([{ two: 2 }]);
  });
});

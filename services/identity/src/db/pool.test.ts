import { Client } from 'pg';
import { startTcpProxy, type TcpProxy } from '../../test/setup/tcp-proxy';
import { DATABASE_DEFAULTS } from '../config/defaults';
import { createPool, QUERY_TIMEOUT_GRACE_MS } from './pool';
import { isDatabaseUnavailable } from './unavailable';

const url = () => process.env.TEST_DATABASE_URL!;

/** The service's own pg pool: the settings every runtime query runs under (DB_* in docs/configuration.md). */
describe('createPool', () => {
  it('opens no connection until a query needs one', async () => {
    const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      expect([pool.totalCount, pool.idleCount, pool.waitingCount]).toEqual([0, 0, 0]);
    } finally {
      await pool.end();
    }
  });

  it('bounds the pool and the wait for a connection; connections run under the statement bound, named identity', async () => {
    const pool = createPool({ url: url(), poolSize: 3, connectTimeoutMs: 1234, queryTimeoutMs: 4321 });
    try {
      expect([pool.options.max, pool.options.connectionTimeoutMillis]).toEqual([3, 1234]);
      const [row] = (
        await pool.query(
          "SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('application_name') AS application_name",
        )
      ).rows;
      expect(row).toEqual({ statement_timeout: '4321ms', application_name: 'identity' });
    } finally {
      await pool.end();
    }
  });

  it('takes the documented defaults when given only the URL', async () => {
    const pool = createPool({ url: url() });
    try {
      expect([pool.options.max, pool.options.connectionTimeoutMillis]).toEqual([
        DATABASE_DEFAULTS.poolSize,
        DATABASE_DEFAULTS.connectTimeoutMs,
      ]);
      const [row] = (await pool.query("SELECT current_setting('statement_timeout') AS s")).rows;
      expect(row).toEqual({ s: `${DATABASE_DEFAULTS.queryTimeoutMs / 1000}s` });
    } finally {
      await pool.end();
    }
  });

  it('a statement running past the bound is cancelled by PostgreSQL', async () => {
    const pool = createPool({ url: url(), queryTimeoutMs: 200 });
    try {
      const failure = await pool.query('SELECT pg_sleep(5)').catch((error: unknown) => error);
      // query_canceled: the server's own bound, the connection stays usable.
      expect(failure).toMatchObject({ code: '57014' });
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  describe('PostgreSQL not answering (hung behind a proxy)', () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      proxy = await startTcpProxy(Number(new URL(url()).port || 5432));
    });
    afterAll(() => proxy?.close());

    it('fails the query as unavailable shortly after the statement bound, and serves again once it answers', async () => {
      const through = new URL(url());
      through.host = `127.0.0.1:${proxy.port}`;
      const queryTimeoutMs = 300;
      const pool = createPool({ url: through.toString(), queryTimeoutMs, onPoolError: () => {} });
      try {
        expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
        proxy.hang();
        const started = performance.now();
        const failure = await pool.query('SELECT 2 AS two').catch((error: unknown) => error);
        const waited = performance.now() - started;
        expect(isDatabaseUnavailable(failure)).toBe(true);
        expect(waited).toBeGreaterThanOrEqual(queryTimeoutMs);
        expect(waited).toBeLessThan(queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS + 500);
        proxy.restore();
        expect((await pool.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
      } finally {
        proxy.restore();
        await pool.end();
      }
    });
  });

  it('an idle connection broken by the server is reported to onPoolError, not thrown, and replaced', async () => {
    const errors: Error[] = [];
    const pool = createPool({ url: url(), poolSize: 1, onPoolError: (error) => errors.push(error) });
    const killer = new Client({ connectionString: url() });
    await killer.connect();
    try {
      const [{ pid }] = (await pool.query('SELECT pg_backend_pid() AS pid')).rows;
      expect(pool.idleCount).toBe(1);
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 40 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(errors).toHaveLength(1);
      const [again] = (await pool.query('SELECT pg_backend_pid() AS pid')).rows;
      expect(again.pid).not.toBe(pid);
    } finally {
      await killer.end();
      await pool.end();
    }
  });

  /**
   * PostgreSQL ending a connection (a restart, pg_terminate_backend, a failover) sends FATAL 57P01 and closes it.
   * A connection checked out of the pool has no listener of the pool's: when the message finds it between two
   * queries (handed to a waiting caller, between a transaction's statements, the clock's readings), pg emits
   * 'error' on it, which would end the process unless the connection itself listens.
   */
  it('a checked-out connection ended by the server between queries does not end the process: its next query fails as unavailable', async () => {
    const errors: Error[] = [];
    const pool = createPool({ url: url(), poolSize: 2, onPoolError: (error) => errors.push(error) });
    const killer = new Client({ connectionString: url() });
    await killer.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const client = await pool.connect();
      const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows;
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((r) => setTimeout(r, 300));
      expect(uncaught).toEqual([]);
      const failure = await client.query('SELECT 1').catch((error: unknown) => error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      client.release(failure as Error);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(pool.totalCount).toBe(1);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await killer.end();
      await pool.end();
    }
  });
});

import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { createPool, REQUEST_DEADLINE_MARGIN_MS } from '../db/pool';
import { isDatabaseUnavailable } from '../db/unavailable';
import { withDeadline } from './request-deadline';
import { type Sql, sqlFor } from './sql';

/**
 * A request's waits for PostgreSQL end by its deadline (docs/operations.md, "Request deadline"), whatever the
 * pool's own bounds (here 10 s for a connection, 10 s for an answer): the wait for a connection others hold, the
 * answer to a statement, and a transaction's statements together. Work outside a request keeps the pool's bounds.
 */
describe('sql under a request deadline', () => {
  let pool: Pool;
  let sql: Sql;
  beforeAll(() => {
    pool = createPool({
      url: process.env.TEST_DATABASE_URL!,
      poolSize: 1,
      connectTimeoutMs: 10_000,
      queryTimeoutMs: 10_000,
    });
    sql = sqlFor(pool);
  });
  afterAll(() => pool?.end());

  /** Runs `work` under a deadline `ms` from now; answers its failure (or null) and how long it took. */
  async function within(ms: number, work: () => Promise<unknown>) {
    const started = performance.now();
    const failure = await withDeadline(started + ms, work).then(
      () => null,
      (error: unknown) => error,
    );
    return { failure, tookMs: performance.now() - started };
  }

  it('a wait for a connection another holds ends at the deadline less the margin, as unavailable; the connection comes back', async () => {
    const held = await pool.connect();
    try {
      const { failure, tookMs } = await within(800, () => sql.query('select 1'));
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(String((failure as Error).message)).toMatch(/deadline/);
      expect(tookMs).toBeGreaterThanOrEqual(800 - REQUEST_DEADLINE_MARGIN_MS - 20);
      expect(tookMs).toBeLessThan(800);
    } finally {
      held.release();
    }
    // The abandoned wait got the connection later and gave it straight back.
    expect(await sql.query('select 1 as one')).toEqual([{ one: 1 }]);
    expect([pool.totalCount, pool.waitingCount]).toEqual([1, 0]);
  });

  it('a statement still running at the deadline is cut before it: its connection closed, as unavailable', async () => {
    const { failure, tookMs } = await within(1000, () => sql.query('select pg_sleep(5)'));
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(String((failure as Error).message)).toMatch(/request's deadline/);
    expect(tookMs).toBeLessThan(1000);
    expect(tookMs).toBeGreaterThanOrEqual(1000 - 2 * REQUEST_DEADLINE_MARGIN_MS);
    expect(await sql.query('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('a transaction whose statements together outlast the deadline is cut and rolled back: nothing of it stays', async () => {
    await sql.query('create table if not exists deadline_probe (id text primary key)');
    const id = `probe-${Math.random()}`;
    const { failure, tookMs } = await within(1200, () =>
      sql.transaction(async (tx) => {
        await tx.query('insert into deadline_probe (id) values ($1)', [id]);
        for (let i = 0; i < 10; i++) await tx.query('select pg_sleep(0.3)');
      }),
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(tookMs).toBeLessThan(1200);
    expect(await sql.query('select id from deadline_probe where id = $1', [id])).toEqual([]);
  });

  it('a request whose time is already up gets no connection at all', async () => {
    const { failure, tookMs } = await within(REQUEST_DEADLINE_MARGIN_MS / 2, () =>
      sql.transaction((tx) => tx.query('select 1')),
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(tookMs).toBeLessThan(50);
  });

  it('outside a request, work keeps the pool bounds: a statement longer than any request deadline completes', async () => {
    expect(await sql.query('select pg_sleep(1.2), 1 as one')).toEqual([{ pg_sleep: '', one: 1 }]);
  });
});

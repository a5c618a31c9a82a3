import { Pool } from 'pg';
import { createQueryDeadline } from './query-deadline';
import { isDatabaseUnavailable } from './unavailable';

const LIMIT_MS = 400;

function pool(max = 1) {
  const deadline = createQueryDeadline({ limitMs: LIMIT_MS, sweepMs: 100 });
  const errors: Error[] = [];
  const p = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max, Client: deadline.Client });
  p.on('error', (e) => errors.push(e));
  return { pool: p, deadline, errors };
}

describe('query deadline', () => {
  it('closes a connection whose answer does not come within the limit: the query fails as unavailable', async () => {
    const { pool: p, deadline } = pool();
    try {
      const started = performance.now();
      const failure = await p.query('select pg_sleep(5)').catch((e: unknown) => e);
      const waited = performance.now() - started;
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
      expect(isDatabaseUnavailable(failure)).toBe(true);
      // Cut short: pg_sleep(5) would have taken 5 s.
      expect(waited).toBeLessThan(4000);
      expect(deadline.busy()).toBe(0);
      // The pool dropped that connection and opens a working one.
      expect(p.totalCount).toBe(0);
      expect((await p.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await p.end();
    }
  });

  it('bounds each answer, not the connection: many short queries in a row outlast the limit together', async () => {
    const { pool: p } = pool();
    const client = await p.connect();
    try {
      const started = performance.now();
      for (let i = 0; i < 8; i++) await client.query('select pg_sleep(0.1)');
      expect(performance.now() - started).toBeGreaterThan(LIMIT_MS);
      expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    } finally {
      client.release();
      await p.end();
    }
  });

  it('leaves a checked-out connection alone while the application, not PostgreSQL, takes its time', async () => {
    const { pool: p } = pool();
    const client = await p.connect();
    try {
      await client.query('begin');
      await client.query('create temporary table deadline_probe (n int) on commit drop');
      await new Promise((resolve) => setTimeout(resolve, LIMIT_MS * 3));
      await client.query('insert into deadline_probe values (1)');
      expect((await client.query('select count(*)::int as n from deadline_probe')).rows).toEqual([{ n: 1 }]);
      await client.query('commit');
    } finally {
      client.release();
      await p.end();
    }
  });

  it('bounds each answer also when the pool hands a connection straight from one query to the next (saturated pool)', async () => {
    // More queries than connections for longer than the limit: each waiting query gets the connection in the callback
    // of the one before, so the connection never goes idle in between. Every answer comes within the limit.
    const { pool: p, errors } = pool(1);
    try {
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: 16 }, () => p.query('select pg_sleep(0.05)')));
      expect(performance.now() - started).toBeGreaterThan(LIMIT_MS);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await p.end();
    }
  });

  it('counts connections that wait for an answer', async () => {
    const { pool: p, deadline } = pool(2);
    try {
      // Well within the limit even on a loaded machine; counted once both are sent (after their connects).
      const slow = [p.query('select pg_sleep(0.15)'), p.query('select pg_sleep(0.15)')];
      for (let i = 0; i < 100 && deadline.busy() < 2; i++) await new Promise((resolve) => setTimeout(resolve, 2));
      expect(deadline.busy()).toBe(2);
      await Promise.all(slow);
      expect(deadline.busy()).toBe(0);
    } finally {
      await p.end();
    }
  });
});

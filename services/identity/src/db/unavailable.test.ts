import { Client, Pool, type QueryConfig } from 'pg';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows PostgreSQL outage states, socket failures and pg client timeouts, bare or wrapped', () => {
    for (const failure of [
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('57014', 'canceling statement due to statement timeout'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('08006'),
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
      new QueryFailedError('SELECT 1', [], withCode('57P01')),
      new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ])
      expect([failure.message, isDatabaseUnavailable(failure)]).toEqual([failure.message, true]);
  });

  it('leaves other failures alone: constraint violations, syntax errors, bugs', () => {
    for (const failure of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42601', 'syntax error'),
      withCode('22P02', 'invalid input syntax for type uuid'),
      new QueryFailedError('SELECT', [], withCode('23503')),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      null,
      'a string',
    ])
      expect(isDatabaseUnavailable(failure)).toBe(false);
  });

  it('recognises what pg really throws for a refused connection, a pool wait and a query past its bound', async () => {
    const refused = new Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 1000 });
    const connectError = await refused.connect().catch((e) => e);
    expect(isDatabaseUnavailable(connectError)).toBe(true);

    const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1, connectionTimeoutMillis: 200 });
    const held = await pool.connect();
    try {
      expect(isDatabaseUnavailable(await pool.query('select 1').catch((e) => e))).toBe(true);
      const slow = await held.query({ text: 'select pg_sleep(1)', query_timeout: 100 } as QueryConfig).catch((e) => e);
      expect(isDatabaseUnavailable(slow)).toBe(true);
      await held.query('set statement_timeout = 50');
      expect(isDatabaseUnavailable(await held.query('select pg_sleep(1)').catch((e) => e))).toBe(true);
    } finally {
      held.release(true);
      await pool.end();
    }
  });
});

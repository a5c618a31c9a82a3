import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type FaultStack, startFaultStack } from './harness/stack';

/** The fault harness itself: its own cluster and Redis, a real API on them, and control over both. */
describe('fault harness', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack();
  }, 60_000);
  afterAll(() => stack?.destroy());

  it('runs the API on its own PostgreSQL and Redis, and can pause and restart the cluster', async () => {
    expect(stack.pg.port).not.toBe(5432);
    expect(stack.redis.port).not.toBe(6379);
    const api = await stack.api();
    const email = uniqueEmail('harness');
    const res = await fetch(`${api.base}/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email, password: PASSWORD, name: 'Harness' }),
    });
    expect(res.status).toBe(200);
    const rows = await stack.pg.query<{ email: string }>('select email from users where email = $1', [email]);
    expect(rows).toEqual([{ email }]);

    const before = stack.pg.pid();
    await stack.pg.restart('fast');
    expect(stack.pg.pid()).not.toBe(before);
    stack.pg.pause();
    const c = await import('pg').then(
      ({ Client }) => new Client({ connectionString: stack.pg.url, connectionTimeoutMillis: 500 }),
    );
    await expect(c.connect()).rejects.toThrow();
    stack.pg.resume();
    expect(await stack.pg.query('select 1 as one')).toEqual([{ one: 1 }]);
  }, 60_000);
});

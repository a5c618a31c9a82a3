import { startTestApp, type TestApp } from '../../setup/app';
import { post, signUp } from '../../setup/fixtures';
import { createKey, keyRow, SERVICE_KEY, server } from './helpers';

/**
 * usage limits and rate limits hold under concurrency and across instances: two API instances on the
 * same PostgreSQL and Redis, each request sent to one of them in turn, all at once.
 */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
  b = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
  b.clock.advance((a.clock.now() - b.clock.now()) / 1000); // one clock: both count in the same window
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const N = 10;

/** 3N verifications of `key` at once, alternating instances; answers the error codes (null = valid). */
async function burst(key: string, instances: TestApp[]): Promise<Array<string | null>> {
  const calls = Array.from({ length: 3 * N }, (_, i) =>
    post(instances[i % instances.length].app, '/api-key/verify', { key }, server()),
  );
  return (await Promise.all(calls)).map((res) => {
    expect(res.statusCode).toBe(200);
    return res.json().valid ? null : res.json().error.code;
  });
}

function tally(codes: Array<string | null>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const code of codes) counts[code ?? 'valid'] = (counts[code ?? 'valid'] ?? 0) + 1;
  return counts;
}

describe.each([
  ['one instance', () => [a]],
  ['two instances', () => [a, b]],
])('%s', (_name, instances) => {
  it(`a key with ${N} uses: exactly ${N} of ${3 * N} parallel verifications succeed`, async () => {
    const u = await signUp(a.app);
    const k = await createKey(a, { userId: u.userId, remaining: N, rateLimitEnabled: false }, server());
    expect(tally(await burst(k.key, instances()))).toEqual({ valid: N, USAGE_EXCEEDED: 2 * N });
    expect((await keyRow(a, k.id)).remaining).toBe(0);
  });

  it(`a key limited to ${N} requests per window: exactly ${N} of ${3 * N} parallel verifications succeed`, async () => {
    const u = await signUp(a.app);
    const k = await createKey(a, { userId: u.userId, rateLimitMax: N, rateLimitTimeWindow: 3_600_000 }, server());
    expect(tally(await burst(k.key, instances()))).toEqual({ valid: N, RATE_LIMITED: 2 * N });
  });

  it(`a session by API key (${N} uses): exactly ${N} of ${3 * N} parallel requests get in`, async () => {
    const u = await signUp(a.app);
    const k = await createKey(a, { userId: u.userId, remaining: N, rateLimitEnabled: false }, server());
    const calls = Array.from({ length: 3 * N }, (_, i) =>
      instances()[i % instances().length].app.inject({
        method: 'GET',
        url: '/api/auth/organization/list',
        headers: { 'x-api-key': k.key },
      }),
    );
    const statuses = (await Promise.all(calls)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * N);
  });
});

import { call, ISSUER, type OpTest, startOpTest } from './helpers';

/**
 * The provider's endpoints are counted by the service's per-address rate limits, each by its own declared rule
 * (docs/configuration.md, Route policies): 30 authorization requests a minute.
 */
let s: OpTest;
beforeAll(async () => {
  s = await startOpTest({ RATE_LIMIT_ENABLED: 'true' });
});
afterAll(() => s?.close());

it('the authorization endpoint answers 429 past its own limit; another endpoint is not counted with it', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) statuses.push((await call(s.app, `${ISSUER}/oauth2/authorize`)).statusCode);
  expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
  expect(statuses[30]).toBe(429);
  expect((await call(s.app, `${ISSUER}/oauth2/jwks`)).statusCode).toBe(200);
});

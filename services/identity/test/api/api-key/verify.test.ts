import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, post, signUp } from '../../setup/fixtures';
import { createKey, expectError, keyRow, SERVICE_KEY, server, verify } from './helpers';

/** Every spec §8 API key message, reached through verify (and get for "not found"). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t?.close());

const refusal = async (key: string, permissions?: object) => {
  const res = await verify(t, key, permissions);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect([body.valid, body.key]).toEqual([false, null]);
  return body.error as { code: string; message: string; tryAgainIn?: number };
};

it('a valid key: valid, with the key record, one use spent and the request time recorded', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 2 }, server());
  const res = await verify(t, k.key);
  expect(res.json()).toMatchObject({ valid: true, error: null, key: { id: k.id, userId: u.userId, remaining: 1 } });
  expect((await keyRow(t, k.id)).last_request?.getTime()).toBe(t.clock.now());
});

it('Invalid API key. for an unknown or malformed key', async () => {
  for (const key of ['x'.repeat(64), 'short', 'y'.repeat(600)])
    expect(await refusal(key)).toEqual({ code: 'INVALID_API_KEY', message: 'Invalid API key.' });
});

it('API Key is disabled', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, {}, u);
  await post(t.app, '/api-key/update', { keyId: k.id, enabled: false }, { jar: u.jar });
  expect(await refusal(k.key)).toEqual({ code: 'KEY_DISABLED', message: 'API Key is disabled' });
});

it('API Key has expired', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { expiresIn: 60 }, u);
  expect((await verify(t, k.key)).json().valid).toBe(true);
  t.clock.advance(61);
  expect(await refusal(k.key)).toEqual({ code: 'KEY_EXPIRED', message: 'API Key has expired' });
});

it('API Key has reached its usage limit; a refill after its interval gives the uses back', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 1, refillAmount: 2, refillInterval: 60_000 }, server());
  expect((await verify(t, k.key)).json().valid).toBe(true);
  expect(await refusal(k.key)).toEqual({ code: 'USAGE_EXCEEDED', message: 'API Key has reached its usage limit' });
  t.clock.advance(61);
  const refilled = (await verify(t, k.key)).json();
  expect([refilled.valid, refilled.key.remaining]).toEqual([true, 1]);
  expect(refilled.key.lastRefillAt).toBe(new Date(t.clock.now()).toISOString());
  expect((await verify(t, k.key)).json().key.remaining).toBe(0);
  expect((await refusal(k.key)).code).toBe('USAGE_EXCEEDED');
});

it('Rate limit exceeded. with the time left in the window; the next window is open again', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 }, server());
  expect((await verify(t, k.key)).json().key.requestCount).toBe(1);
  expect((await verify(t, k.key)).json().key.requestCount).toBe(2);
  const error = await refusal(k.key);
  expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'Rate limit exceeded.' });
  expect(error.tryAgainIn).toBeGreaterThan(0);
  expect(error.tryAgainIn).toBeLessThanOrEqual(60_000);
  t.clock.advance(error.tryAgainIn! / 1000);
  expect((await verify(t, k.key)).json().valid).toBe(true);
});

it('API Key not found: verify asking for permissions the key lacks (no use spent), get of an unknown id', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { userId: u.userId, remaining: 5, permissions: { files: ['read'] } }, server());
  expect((await verify(t, k.key, { files: ['read'] })).json().valid).toBe(true);
  expect(await refusal(k.key, { files: ['write'] })).toEqual({ code: 'KEY_NOT_FOUND', message: 'API Key not found' });
  expect((await keyRow(t, k.id)).remaining).toBe(4);
  expectError(
    await get(t.app, `/api-key/get?id=${randomUUID()}`, { jar: u.jar }),
    404,
    'KEY_NOT_FOUND',
    'API Key not found',
  );
});

it('Failed to update API key. when the write does not happen (verify and update); nothing changes', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, { name: 'write-fails', remaining: 3, userId: u.userId }, server());
  // A trigger that skips updates of this one row (other test files share the database).
  await t.ctx.sql.query(`CREATE OR REPLACE FUNCTION api_key_skip_update() RETURNS trigger AS $$
    BEGIN IF OLD.id = '${k.id}' THEN RETURN NULL; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
  await t.ctx.sql.query(
    'CREATE TRIGGER api_key_skip_update BEFORE UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_key_skip_update()',
  );
  try {
    expect(await refusal(k.key)).toEqual({ code: 'FAILED_TO_UPDATE_API_KEY', message: 'Failed to update API key.' });
    const res = await post(t.app, '/api-key/update', { keyId: k.id, name: 'other' }, { jar: u.jar });
    expectError(res, 500, 'FAILED_TO_UPDATE_API_KEY', 'Failed to update API key.');
  } finally {
    await t.ctx.sql.query('DROP TRIGGER api_key_skip_update ON api_keys');
    await t.ctx.sql.query('DROP FUNCTION api_key_skip_update()');
  }
  expect(await keyRow(t, k.id)).toMatchObject({ name: 'write-fails', remaining: 3 });
});

it('verify is server only: refused without the service credential and from browsers', async () => {
  const u = await signUp(t.app);
  const k = await createKey(t, {}, u);
  expectError(await post(t.app, '/api-key/verify', { key: k.key }, { origin: null }), 403, 'SERVER_ONLY');
  expectError(
    await post(t.app, '/api-key/verify', { key: k.key }, { headers: { 'x-api-key': SERVICE_KEY } }),
    403,
    'SERVER_ONLY',
  );
  expectError(await post(t.app, '/api-key/verify', { key: k.key }, server(k.key)), 403, 'SERVER_ONLY');
  expect((await keyRow(t, k.id)).last_request).toBeNull();
});

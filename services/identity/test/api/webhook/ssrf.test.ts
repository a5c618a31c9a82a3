import { deriveKeys } from '../../../src/crypto/keys';
import { newId } from '../../../src/crypto/random';
import { Sealer } from '../../../src/crypto/sealed';
import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import type { TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { deliveriesOf, Receiver, until, webhookApp } from './helpers';

/**
 * SSRF: the service in production mode (NODE_ENV=production). URLs that are not https, or whose host is or
 * resolves to an address that is not public, are refused when saved; and an endpoint row that names such a host
 * anyway (saved when its name resolved elsewhere: DNS rebinding) is refused when the connection is made.
 */
const db = migratedScratchDatabase('webhook_ssrf');
const start = webhookApp(db.url, { redis: false, env: { NODE_ENV: 'production' } });
let t: TestApp;
let admin: SignedUp;
let receiver: Receiver;

beforeAll(async () => {
  t = await start();
  expect(t.config.env).toBe('production');
  admin = await signUpAdmin(t);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const port = () => new URL(receiver.origin).port;

describe('webhook URLs in production', () => {
  const refused = [
    ['http (not https)', 'http://example.com/hook'],
    ['localhost (resolves to loopback)', 'https://localhost/hook'],
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback IPv6', 'https://[::1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['private 10/8', 'https://10.1.2.3/hook'],
    ['private 172.16/12', 'https://172.20.0.1/hook'],
    ['private 192.168/16', 'https://192.168.1.1/hook'],
    ['unique local fc00::/7', 'https://[fd12::1]/hook'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['link-local IPv6', 'https://[fe80::1]/hook'],
    ['CGNAT', 'https://100.64.0.1/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['multicast', 'https://224.0.0.1/hook'],
  ] as const;

  it.each(refused)('refuses %s at creation, writing nothing (%s)', async (_what, url) => {
    const before = await t.ctx.sql.query('SELECT count(*)::int AS n FROM webhook_endpoints');
    const res = await adminPost(t, 'create-webhook-endpoint', { url, eventTypes: ['user.'] }, admin.jar);
    expectError(res, 400, 'WEBHOOK_URL_NOT_ALLOWED');
    expect(res.json().details[0].field).toBe('url');
    expect(await t.ctx.sql.query('SELECT count(*)::int AS n FROM webhook_endpoints')).toEqual(before);
  });

  it('refuses the same on update', async () => {
    const id = await insertEndpoint('https://example.com/hook', false);
    expectError(
      await adminPost(t, 'update-webhook-endpoint', { id, url: `https://localhost:${port()}/hook` }, admin.jar),
      400,
      'WEBHOOK_URL_NOT_ALLOWED',
    );
    const [row] = await t.ctx.sql.query<{ url: string }>('SELECT url FROM webhook_endpoints WHERE id = $1', [id]);
    expect(row.url).toBe('https://example.com/hook');
  });

  it.each([
    [
      'a name that resolves to loopback',
      () => `https://localhost:${port()}/rebound`,
      /^refused: address (127\.0\.0\.1|::1) is not public$/,
    ],
    [
      'a loopback address',
      () => `https://127.0.0.1:${port()}/literal`,
      /^refused: address 127\.0\.0\.1 is not public$/,
    ],
    ['plain http', () => `http://127.0.0.1:${port()}/plain`, /^refused: URL must be an https URL$/],
  ])('refuses at connection time an endpoint saved with %s: nothing reaches it', async (_what, url, error) => {
    const id = await insertEndpoint(url(), true);
    await new Promise((r) => setTimeout(r, t.config.webhook.endpointRefreshMs * 2 + 200)); // the routes reload
    await t.ctx.sql.transaction((tx) =>
      t.ctx.features.audit.events.record(tx, {
        type: 'user.updated',
        source: SYSTEM_SOURCE,
        target: { type: 'user', id: admin.userId },
      }),
    );
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length >= 1, 8000, 'a refused attempt');
    const [attempt] = (await deliveriesOf(t, admin.jar, id)).sort((a, b) => a.attempt - b.attempt);
    expect(attempt.status).toBe('failed');
    expect(attempt.responseCode).toBeNull();
    expect(attempt.error).toMatch(error);
    expect(receiver.received).toEqual([]);
    await t.ctx.sql.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [id]);
  });
});

/** An endpoint row written directly (as if saved while its name pointed elsewhere), with a sealed secret. */
async function insertEndpoint(url: string, enabled: boolean): Promise<string> {
  const id = newId();
  const sealed = new Sealer(deriveKeys(t.config, 'webhook-secrets')).seal(
    `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    `webhook-secret:${id}`,
  );
  await t.ctx.sql.query(
    `INSERT INTO webhook_endpoints (id, url, event_types, enabled, secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, now(), now())`,
    [id, url, ['user.updated'], enabled, sealed],
  );
  return id;
}

import type { ConfigOverrides } from '../../../src/config';
import { startTestApp, type TestApp } from '../../setup/app';
import type { CookieJar } from '../../setup/fixtures';
import { adminGet, adminPost } from '../admin/helpers';

/**
 * The service on a database of the test file's own (its "nothing written" checks count every client and event),
 * without Redis, with API scopes `orders:read orders:write`.
 */
export function oauthClientApp(databaseUrl: () => string, overrides: ConfigOverrides = {}): () => Promise<TestApp> {
  return () =>
    startTestApp(
      {
        ...overrides,
        oauthClients: { secretGraceSec: 3600, apiScopes: ['orders:read', 'orders:write'], ...overrides.oauthClients },
      },
      { DATABASE_URL: databaseUrl(), REDIS_URL: '' },
    );
}

/** A confidential web application's registration (authorization code, refresh tokens). */
export const WEB_APP = {
  name: 'Orders portal',
  type: 'confidential',
  redirectUris: ['https://orders.example.com/callback'],
  postLogoutRedirectUris: ['https://orders.example.com/'],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile', 'email', 'offline_access'],
} as const;

/** A public native application's registration (a private-use scheme and a loopback redirect). */
export const NATIVE_APP = {
  name: 'Orders mobile',
  type: 'public',
  redirectUris: ['com.example.orders:/callback', 'http://127.0.0.1/callback'],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'offline_access', 'orders:read'],
} as const;

/** A confidential service (machine to machine). */
export const SERVICE = {
  name: 'Billing job',
  type: 'confidential',
  grantTypes: ['client_credentials'],
  scopes: ['orders:read'],
} as const;

export async function createClient(
  t: TestApp,
  jar: CookieJar,
  body: object,
): Promise<{ clientId: string; secret: string | null; client: Record<string, unknown> }> {
  const res = await adminPost(t, 'create-oauth-client', body, jar);
  if (res.statusCode !== 200) throw new Error(`create-oauth-client: ${res.statusCode} ${res.body}`);
  const { client, secret } = res.json();
  return { clientId: client.clientId, secret, client };
}

export const getClient = (t: TestApp, jar: CookieJar, clientId: string) =>
  adminGet(t, `get-oauth-client?clientId=${encodeURIComponent(clientId)}`, jar);

/** Everything the client routes write: the clients (hashes included), their events and the webhook messages. */
export async function written(t: TestApp) {
  const [clients, events, outbox] = await Promise.all([
    t.ctx.sql.query('SELECT * FROM oauth_clients ORDER BY client_id'),
    t.ctx.sql.query("SELECT id, type FROM audit_events WHERE type LIKE 'oauth_client.%' ORDER BY id"),
    t.ctx.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE topic = 'webhook'"),
  ]);
  return { clients, events, outbox };
}

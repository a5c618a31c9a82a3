import type { TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminPost, signUpAdmin } from '../admin/helpers';
import { createClient, NATIVE_APP, oauthClientApp, SERVICE, WEB_APP } from './helpers';

/**
 * What the OpenID Provider reads (the feature's `registry`): a client's metadata in OpenID Dynamic Client
 * Registration names, and the check of a presented secret through rotations and their grace period.
 */
const db = migratedScratchDatabase('oauth_clients_registry');
const GRACE_SEC = 600;
const start = oauthClientApp(db.url, { oauthClients: { secretGraceSec: GRACE_SEC, apiScopes: ['orders:read'] } });
let t: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  t = await start();
  admin = await signUpAdmin(t);
});
afterAll(() => t?.close());

const registry = () => t.ctx.features.oauthClient.registry;
const rotate = async (clientId: string) => {
  const res = await adminPost(t, 'rotate-oauth-client-secret', { clientId }, admin.jar);
  expect(res.statusCode).toBe(200);
  return res.json() as { client: { previousSecretExpiresAt: string }; secret: string };
};

describe('find', () => {
  it('answers a confidential web client in registration names, never a secret', async () => {
    const { clientId, secret } = await createClient(t, admin.jar, {
      ...WEB_APP,
      logoUri: 'https://cdn.example.com/logo.png',
      description: 'Staff portal',
      backchannelLogoutUri: 'https://orders.example.com/logout',
      pairwiseSubject: true,
      firstParty: true,
      accessTokenFormat: 'jwt',
      accessTokenTtlSec: 300,
    });
    const found = await registry().find(clientId);
    expect(found).toEqual({
      client_id: clientId,
      client_name: WEB_APP.name,
      logo_uri: 'https://cdn.example.com/logo.png',
      redirect_uris: WEB_APP.redirectUris,
      post_logout_redirect_uris: WEB_APP.postLogoutRedirectUris,
      grant_types: WEB_APP.grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid profile email offline_access',
      application_type: 'web',
      subject_type: 'pairwise',
      backchannel_logout_uri: 'https://orders.example.com/logout',
      client_type: 'confidential',
      client_description: 'Staff portal',
      first_party: true,
      require_pkce: true,
      access_token_format: 'jwt',
      access_token_lifetime_sec: 300,
      refresh_token_lifetime_sec: null,
      id_token_lifetime_sec: null,
      organization_id: null,
    });
    expect(JSON.stringify(found)).not.toContain(secret!);
    expect(JSON.stringify(found)).not.toContain('sha256');
  });

  it('answers a public native client with none and native; a service without response types', async () => {
    const native = await createClient(t, admin.jar, NATIVE_APP);
    expect(await registry().find(native.clientId)).toMatchObject({
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      subject_type: 'public',
      response_types: ['code'],
      client_type: 'public',
      require_pkce: true,
    });
    const service = await createClient(t, admin.jar, { ...SERVICE, tokenEndpointAuthMethod: 'client_secret_post' });
    const found = await registry().find(service.clientId);
    expect(found).toMatchObject({
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: [],
      scope: 'orders:read',
    });
    expect(found).not.toHaveProperty('logo_uri');
    expect(found).not.toHaveProperty('backchannel_logout_uri');
  });

  it('answers undefined for an unknown id or text that is no id', async () => {
    expect(await registry().find('A'.repeat(24))).toBeUndefined();
    expect(await registry().find("'; DROP TABLE oauth_clients; --")).toBeUndefined();
    expect(await registry().find('')).toBeUndefined();
  });
});

describe('verifySecret', () => {
  it('refuses unknown clients, wrong and empty secrets, and over-long input', async () => {
    const { clientId, secret } = await createClient(t, admin.jar, SERVICE);
    expect(await registry().verifySecret(clientId, secret!)).toBe(true);
    expect(await registry().verifySecret('A'.repeat(24), secret!)).toBe(false);
    expect(await registry().verifySecret('not an id', secret!)).toBe(false);
    expect(await registry().verifySecret(clientId, '')).toBe(false);
    expect(await registry().verifySecret(clientId, secret!.toUpperCase())).toBe(secret === secret!.toUpperCase());
    expect(await registry().verifySecret(clientId, `${secret}x`)).toBe(false);
    expect(await registry().verifySecret(clientId, secret!.repeat(20))).toBe(false);
  });

  it('after a rotation the old secret holds until the grace period ends, then is refused', async () => {
    const { clientId, secret: first } = await createClient(t, admin.jar, SERVICE);
    const rotated = await rotate(clientId);
    expect(rotated.secret).not.toBe(first);
    expect(Date.parse(rotated.client.previousSecretExpiresAt)).toBe(t.clock.now() + GRACE_SEC * 1000);
    expect(await registry().verifySecret(clientId, rotated.secret)).toBe(true);
    expect(await registry().verifySecret(clientId, first!)).toBe(true);
    t.clock.advance(GRACE_SEC - 1);
    expect(await registry().verifySecret(clientId, first!)).toBe(true);
    t.clock.advance(1);
    expect(await registry().verifySecret(clientId, first!)).toBe(false);
    expect(await registry().verifySecret(clientId, rotated.secret)).toBe(true);
  });

  it('a second rotation ends the first secret at once, whatever its grace', async () => {
    const { clientId, secret: first } = await createClient(t, admin.jar, SERVICE);
    const second = await rotate(clientId);
    const third = await rotate(clientId);
    expect(await registry().verifySecret(clientId, first!)).toBe(false);
    expect(await registry().verifySecret(clientId, second.secret)).toBe(true);
    expect(await registry().verifySecret(clientId, third.secret)).toBe(true);
  });

  it('parallel rotations leave exactly one current and one previous secret, each one of those answered', async () => {
    const { clientId, secret: original } = await createClient(t, admin.jar, SERVICE);
    const answers = await Promise.all(Array.from({ length: 8 }, () => rotate(clientId)));
    const secrets = [original!, ...answers.map((a) => a.secret)];
    expect(new Set(secrets).size).toBe(secrets.length);
    const valid: string[] = [];
    for (const s of secrets) if (await registry().verifySecret(clientId, s)) valid.push(s);
    expect(valid).toHaveLength(2);
    expect(valid).not.toContain(original);
    const [row] = await t.ctx.sql.query<{ secret_hash: string; previous_secret_hash: string }>(
      'SELECT secret_hash, previous_secret_hash FROM oauth_clients WHERE client_id = $1',
      [clientId],
    );
    expect(row.secret_hash).not.toBe(row.previous_secret_hash);
    const events = await t.ctx.sql.query(
      "SELECT 1 FROM audit_events WHERE type = 'oauth_client.secret_rotated' AND target_id = $1",
      [clientId],
    );
    expect(events).toHaveLength(8);
  });

  it('with no grace period the previous secret stops at the rotation', async () => {
    t.config.oauthClients.secretGraceSec = 0;
    try {
      const { clientId, secret } = await createClient(t, admin.jar, SERVICE);
      const rotated = await rotate(clientId);
      expect(await registry().verifySecret(clientId, secret!)).toBe(false);
      expect(await registry().verifySecret(clientId, rotated.secret)).toBe(true);
    } finally {
      t.config.oauthClients.secretGraceSec = GRACE_SEC;
    }
  });
});

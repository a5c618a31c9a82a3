import { createHash } from 'node:crypto';
import type { TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminGet, adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createEndpoint } from '../webhook/helpers';
import { createClient, getClient, NATIVE_APP, oauthClientApp, SERVICE, WEB_APP, written } from './helpers';

/** The admin routes of the OAuth client registry: what they answer, write and record (docs/oauth-clients.md). */
const db = migratedScratchDatabase('oauth_clients_api');
const start = oauthClientApp(db.url);
let t: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  t = await start();
  admin = await signUpAdmin(t);
});
afterAll(() => t?.close());

const registry = () => t.ctx.features.oauthClient.registry;

describe('create', () => {
  it('answers a confidential client with its secret once; the database holds only its SHA-256', async () => {
    const res = await adminPost(t, 'create-oauth-client', { ...WEB_APP, description: 'Staff portal' }, admin.jar);
    expect(res.statusCode).toBe(200);
    const { client, secret } = res.json();
    expect(client.clientId).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(client).toMatchObject({
      ...WEB_APP,
      description: 'Staff portal',
      logoUri: null,
      tokenEndpointAuthMethod: 'client_secret_basic',
      requirePkce: true,
      accessTokenFormat: 'opaque',
      accessTokenTtlSec: null,
      firstParty: false,
      organizationId: null,
      pairwiseSubject: false,
      previousSecretExpiresAt: null,
      createdBy: admin.userId,
    });
    const [row] = await t.ctx.sql.query<Record<string, string>>(
      'SELECT secret_hash, previous_secret_hash FROM oauth_clients WHERE client_id = $1',
      [client.clientId],
    );
    expect(row.secret_hash).toBe(`sha256:${createHash('sha256').update(secret).digest('base64url')}`);
    expect(row.previous_secret_hash).toBeNull();
    expect(await registry().verifySecret(client.clientId, secret)).toBe(true);
    expect(await registry().verifySecret(client.clientId, `${secret.slice(0, -1)}A`)).toBe(secret.endsWith('A'));
    expect(await registry().verifySecret(client.clientId, row.secret_hash)).toBe(false);

    // Never again: not in the read, the list, nor the audit trail.
    for (const answer of [
      await getClient(t, admin.jar, client.clientId),
      await adminGet(t, 'list-oauth-clients', admin.jar),
      await adminGet(t, `list-events?targetId=${client.clientId}`, admin.jar),
    ]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(secret);
      expect(answer.body).not.toContain(row.secret_hash.slice(7));
    }
    expect((await getClient(t, admin.jar, client.clientId)).json()).toEqual({ client });
  });

  it('answers a public client without a secret; no secret of any kind verifies for it', async () => {
    const { clientId, secret, client } = await createClient(t, admin.jar, NATIVE_APP);
    expect(secret).toBeNull();
    expect(client).toMatchObject({ type: 'public', tokenEndpointAuthMethod: 'none', requirePkce: true });
    const [row] = await t.ctx.sql.query('SELECT secret_hash FROM oauth_clients WHERE client_id = $1', [clientId]);
    expect(row.secret_hash).toBeNull();
    expect(await registry().verifySecret(clientId, '')).toBe(false);
    expect(await registry().verifySecret(clientId, 'anything')).toBe(false);
  });

  it('keeps the optional fields given', async () => {
    const org = await adminPost(t, 'organization/create', { name: 'Acme', slug: `acme-${Date.now()}` }, admin.jar);
    expect(org.statusCode).toBe(200);
    const { client } = await createClient(t, admin.jar, {
      ...SERVICE,
      logoUri: 'https://cdn.example.com/billing.png',
      tokenEndpointAuthMethod: 'client_secret_post',
      accessTokenFormat: 'jwt',
      accessTokenTtlSec: 600,
      refreshTokenTtlSec: 86_400,
      idTokenTtlSec: 300,
      firstParty: true,
      organizationId: org.json().id,
      backchannelLogoutUri: 'https://billing.example.com/logout',
      pairwiseSubject: true,
    });
    expect(client).toMatchObject({
      logoUri: 'https://cdn.example.com/billing.png',
      tokenEndpointAuthMethod: 'client_secret_post',
      accessTokenFormat: 'jwt',
      accessTokenTtlSec: 600,
      refreshTokenTtlSec: 86_400,
      idTokenTtlSec: 300,
      firstParty: true,
      organizationId: org.json().id,
      backchannelLogoutUri: 'https://billing.example.com/logout',
      pairwiseSubject: true,
      redirectUris: [],
      postLogoutRedirectUris: [],
    });
  });
});

describe('list', () => {
  it('pages newest first and filters by name (any case, part of it), type and organization', async () => {
    const tag = `Zeta${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1);
      const body = i % 2 ? { ...NATIVE_APP, name: `${tag} app ${i}` } : { ...WEB_APP, name: `${tag} portal ${i}` };
      made.push((await createClient(t, admin.jar, body)).clientId);
    }
    const page = async (query: string) => {
      const res = await adminGet(t, `list-oauth-clients?${query}`, admin.jar);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const first = await page(`name=${tag.toLowerCase()}&limit=2`);
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(first.clients.map((c: { clientId: string }) => c.clientId)).toEqual([made[4], made[3]]);
    const last = await page(`name=${tag}&limit=2&offset=4`);
    expect(last.clients.map((c: { clientId: string }) => c.clientId)).toEqual([made[0]]);
    const publicOnes = await page(`name=${tag}&type=public`);
    expect(publicOnes.clients.map((c: { clientId: string }) => c.clientId)).toEqual([made[3], made[1]]);
    expect((await page(`name=${tag} portal`)).total).toBe(3);
    // LIKE wildcards match themselves
    expect((await page('name=%25')).total).toBe(0);
    expect((await page('name=_')).total).toBe(0);

    const org = (
      await adminPost(t, 'organization/create', { name: 'Owner', slug: `owner-${Date.now()}` }, admin.jar)
    ).json();
    const owned = await createClient(t, admin.jar, { ...SERVICE, name: `${tag} owned`, organizationId: org.id });
    expect((await page(`organizationId=${org.id}`)).clients.map((c: { clientId: string }) => c.clientId)).toEqual([
      owned.clientId,
    ]);
    expect(await page('organizationId=not-an-id')).toMatchObject({ clients: [], total: 0 });
    expectError(await adminGet(t, 'list-oauth-clients?type=secret', admin.jar), 400, 'VALIDATION_ERROR');
  });

  it('list-oauth-scopes answers the standard scopes and the configured API scopes', async () => {
    const res = await adminGet(t, 'list-oauth-scopes', admin.jar);
    expect(res.json()).toEqual({
      scopes: ['openid', 'profile', 'email', 'offline_access', 'organization', 'orders:read', 'orders:write'],
    });
  });
});

describe('update and delete', () => {
  it('update changes the fields given, checks the client it makes, and records which fields', async () => {
    const { clientId, secret } = await createClient(t, admin.jar, WEB_APP);
    t.clock.advance(5);
    const res = await adminPost(
      t,
      'update-oauth-client',
      {
        clientId,
        name: 'Orders portal (new)',
        redirectUris: ['https://orders.example.com/callback', 'https://orders.example.com/cb2'],
        description: 'changed',
        firstParty: true,
      },
      admin.jar,
    );
    expect(res.statusCode).toBe(200);
    const { client } = res.json();
    expect(client).toMatchObject({
      clientId,
      name: 'Orders portal (new)',
      redirectUris: ['https://orders.example.com/callback', 'https://orders.example.com/cb2'],
      description: 'changed',
      firstParty: true,
      grantTypes: WEB_APP.grantTypes,
    });
    expect(Date.parse(client.updatedAt)).toBeGreaterThan(Date.parse(client.createdAt));
    // null clears an optional field; the secret is untouched by an update
    const cleared = await adminPost(t, 'update-oauth-client', { clientId, description: null }, admin.jar);
    expect(cleared.json().client.description).toBeNull();
    expect(await registry().verifySecret(clientId, secret!)).toBe(true);
    const events = await t.ctx.sql.query<{ details: unknown }>(
      "SELECT details FROM audit_events WHERE type = 'oauth_client.updated' AND target_id = $1 ORDER BY occurred_at, seq",
      [clientId],
    );
    expect(events.map((e) => e.details)).toEqual([
      { fields: ['name', 'redirectUris', 'description', 'firstParty'] },
      { fields: ['description'] },
    ]);
    expectError(await adminPost(t, 'update-oauth-client', { clientId }, admin.jar), 400, 'NO_DATA_TO_UPDATE');
    expectError(
      await adminPost(t, 'update-oauth-client', { clientId, type: 'public' }, admin.jar),
      400,
      'FIELD_NOT_ALLOWED',
    );
  });

  it('delete removes the client: its id and secret stop at once', async () => {
    const { clientId, secret } = await createClient(t, admin.jar, WEB_APP);
    expect((await adminPost(t, 'delete-oauth-client', { clientId }, admin.jar)).json()).toEqual({ success: true });
    expect(await registry().find(clientId)).toBeUndefined();
    expect(await registry().verifySecret(clientId, secret!)).toBe(false);
    expectError(await getClient(t, admin.jar, clientId), 404, 'OAUTH_CLIENT_NOT_FOUND');
    expectError(await adminPost(t, 'delete-oauth-client', { clientId }, admin.jar), 404, 'OAUTH_CLIENT_NOT_FOUND');
    expectError(await getClient(t, admin.jar, 'not a client id'), 404, 'OAUTH_CLIENT_NOT_FOUND');
  });

  it('deleting the owning organization deletes its clients', async () => {
    const org = (
      await adminPost(t, 'organization/create', { name: 'Gone', slug: `gone-${Date.now()}` }, admin.jar)
    ).json();
    const { clientId } = await createClient(t, admin.jar, { ...SERVICE, organizationId: org.id });
    expect((await adminPost(t, 'organization/delete', { organizationId: org.id }, admin.jar)).statusCode).toBe(200);
    expect(await registry().find(clientId)).toBeUndefined();
  });
});

describe('the audit trail', () => {
  it('records every change in its transaction, with the operator, the organization, and no secret; webhooks follow', async () => {
    await createEndpoint(t, admin.jar, { url: 'http://127.0.0.1:9/hook', eventTypes: ['oauth_client.'] });
    const org = (
      await adminPost(t, 'organization/create', { name: 'Audited', slug: `aud-${Date.now()}` }, admin.jar)
    ).json();
    const before = await written(t);
    const { clientId, secret } = await createClient(t, admin.jar, { ...WEB_APP, organizationId: org.id });
    await adminPost(t, 'update-oauth-client', { clientId, name: 'Renamed' }, admin.jar);
    const rotated = (await adminPost(t, 'rotate-oauth-client-secret', { clientId }, admin.jar)).json();
    await adminPost(t, 'delete-oauth-client', { clientId }, admin.jar);
    const events = await t.ctx.sql.query<Record<string, unknown>>(
      `SELECT type, actor_type, actor_id, target_type, organization_id, details FROM audit_events
       WHERE target_id = $1 ORDER BY occurred_at, seq`,
      [clientId],
    );
    expect(events).toEqual([
      {
        type: 'oauth_client.created',
        actor_type: 'user',
        actor_id: admin.userId,
        target_type: 'oauth_client',
        organization_id: org.id,
        details: {
          name: WEB_APP.name,
          clientType: 'confidential',
          grantTypes: WEB_APP.grantTypes,
          scopes: WEB_APP.scopes,
          firstParty: false,
        },
      },
      expect.objectContaining({ type: 'oauth_client.updated', details: { fields: ['name'] } }),
      expect.objectContaining({ type: 'oauth_client.secret_rotated', details: { graceSec: 3600 } }),
      expect.objectContaining({ type: 'oauth_client.deleted', details: { name: 'Renamed' } }),
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(rotated.secret);
    // Each event became a webhook message in its transaction (the endpoint wants oauth_client.*).
    expect((await written(t)).outbox[0].n - before.outbox[0].n).toBe(4);
  });

  it('a refused change records nothing (the event and the change commit together or not at all)', async () => {
    const { clientId } = await createClient(t, admin.jar, WEB_APP);
    const before = await written(t);
    expectError(
      await adminPost(
        t,
        'update-oauth-client',
        { clientId, grantTypes: ['client_credentials', 'refresh_token'] },
        admin.jar,
      ),
      400,
      'GRANT_TYPE_NOT_ALLOWED',
    );
    expect(await written(t)).toEqual(before);
  });
});

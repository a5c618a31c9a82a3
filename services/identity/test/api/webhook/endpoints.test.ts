import type { TestApp } from '../../setup/app';
import { type SignedUp, signUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminGet, adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createEndpoint, openSecret as sealedOpen, webhookApp } from './helpers';

/** The endpoint routes under admin/: what they answer, what they write, and what they refuse. */
const db = migratedScratchDatabase('webhook_endpoints');
const start = webhookApp(db.url, {
  redis: false,
  overrides: { admin: { roles: { reader: { webhook: ['read'] } } } },
});
let t: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  t = await start();
  admin = await signUpAdmin(t);
});
afterAll(() => t?.close());

const URL_OK = 'http://127.0.0.1:9/hook';

async function snapshot() {
  const [endpoints, events, outbox] = await Promise.all([
    // Not failing_since: the delivery path writes it in the background (these endpoints point at a closed port).
    t.ctx.sql.query(
      `SELECT id, url, event_types, enabled, description, secret_sealed, previous_secret_sealed,
              previous_secret_expires_at, disabled_reason, created_at, updated_at FROM webhook_endpoints ORDER BY id`,
    ),
    t.ctx.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE type LIKE 'webhook.%'"),
    t.ctx.sql.query("SELECT count(*)::int AS n FROM outbox WHERE topic = 'webhook'"),
  ]);
  return { endpoints, events, outbox };
}

describe('webhook endpoints', () => {
  it('create answers the secret once (whsec_, 32 random bytes), stores it sealed, and records the event', async () => {
    const res = await adminPost(
      t,
      'create-webhook-endpoint',
      { url: URL_OK, eventTypes: ['admin.user.', 'api_key.created', 'api_key.created'], description: 'SIEM' },
      admin.jar,
    );
    expect(res.statusCode).toBe(200);
    const { endpoint, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(endpoint).toMatchObject({
      url: URL_OK,
      eventTypes: ['admin.user.', 'api_key.created'],
      enabled: true,
      description: 'SIEM',
      disabledReason: null,
      failingSince: null,
    });
    const [row] = await t.ctx.sql.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(row.secret_sealed).not.toContain(secret.slice(6));
    expect(sealedOpen(t, endpoint.id, row.secret_sealed)).toBe(secret);
    // Never again: the list has no secret, in any field.
    const list = await adminGet(t, 'list-webhook-endpoints', admin.jar);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret.slice(6));
    expect(list.body).not.toContain('whsec_');
    expect(list.json().endpoints.find((e: { id: string }) => e.id === endpoint.id)).toEqual(endpoint);
    const events = await t.ctx.sql.query<{ actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_id, details FROM audit_events WHERE type = 'webhook.endpoint_created' AND target_id = $1",
      [endpoint.id],
    );
    expect(events).toEqual([
      {
        actor_id: admin.userId,
        details: { host: '127.0.0.1:9', eventTypes: ['admin.user.', 'api_key.created'], enabled: true },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('whsec_');
  });

  it('update changes the fields given and records which; delete removes it; both are audit events', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
    const res = await adminPost(
      t,
      'update-webhook-endpoint',
      { id, url: 'http://127.0.0.1:9/other', eventTypes: ['organization.'], enabled: false, description: null },
      admin.jar,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().endpoint).toMatchObject({
      id,
      url: 'http://127.0.0.1:9/other',
      eventTypes: ['organization.'],
      enabled: false,
    });
    expectError(await adminPost(t, 'update-webhook-endpoint', { id }, admin.jar), 400, 'NO_DATA_TO_UPDATE');
    expect((await adminPost(t, 'delete-webhook-endpoint', { id }, admin.jar)).json()).toEqual({ success: true });
    expectError(await adminPost(t, 'delete-webhook-endpoint', { id }, admin.jar), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    const types = await t.ctx.sql.query<{ type: string }>(
      'SELECT type FROM audit_events WHERE target_id = $1 ORDER BY occurred_at, seq',
      [id],
    );
    expect(types.map((e) => e.type)).toEqual([
      'webhook.endpoint_created',
      'webhook.endpoint_updated',
      'webhook.endpoint_deleted',
    ]);
  });

  it('rotate answers a new secret once and keeps the previous one for the overlap', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
    const res = await adminPost(t, 'rotate-webhook-secret', { id }, admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().secret).not.toBe(secret);
    const [row] = await t.ctx.sql.query<{ secret_sealed: string; previous_secret_sealed: string }>(
      'SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    expect(sealedOpen(t, id, row.secret_sealed)).toBe(res.json().secret);
    expect(sealedOpen(t, id, row.previous_secret_sealed)).toBe(secret);
    expect(Date.parse(res.json().endpoint.previousSecretExpiresAt) - t.clock.now()).toBe(
      t.config.webhook.secretOverlapSec * 1000,
    );
  });

  describe('refusals: a catalogue error, and nothing written', () => {
    const badBodies: Array<[string, string, object, number, string]> = [
      [
        'create',
        'create-webhook-endpoint',
        { url: 'ftp://example.com/x', eventTypes: ['api_key.'] },
        400,
        'INVALID_WEBHOOK_URL',
      ],
      ['create', 'create-webhook-endpoint', { url: 'not a url', eventTypes: ['api_key.'] }, 400, 'INVALID_WEBHOOK_URL'],
      [
        'create',
        'create-webhook-endpoint',
        { url: 'https://u:p@example.com/', eventTypes: ['api_key.'] },
        400,
        'INVALID_WEBHOOK_URL',
      ],
      [
        'create',
        'create-webhook-endpoint',
        { url: URL_OK, eventTypes: ['user.nope'] },
        400,
        'INVALID_WEBHOOK_EVENT_TYPE',
      ],
      [
        'create',
        'create-webhook-endpoint',
        { url: URL_OK, eventTypes: ['nothing.'] },
        400,
        'INVALID_WEBHOOK_EVENT_TYPE',
      ],
      ['create', 'create-webhook-endpoint', { url: URL_OK, eventTypes: ['user'] }, 400, 'INVALID_WEBHOOK_EVENT_TYPE'],
      ['create', 'create-webhook-endpoint', { url: URL_OK, eventTypes: [] }, 400, 'VALIDATION_ERROR'],
      ['create', 'create-webhook-endpoint', { url: URL_OK }, 400, 'VALIDATION_ERROR'],
      [
        'create',
        'create-webhook-endpoint',
        { url: URL_OK, eventTypes: ['user.'], secret: 'whsec_mine' },
        400,
        'FIELD_NOT_ALLOWED',
      ],
      ['create', 'create-webhook-endpoint', { url: URL_OK, eventTypes: ['user.'], id: 'x' }, 400, 'FIELD_NOT_ALLOWED'],
      [
        'update',
        'update-webhook-endpoint',
        { id: '00000000-0000-4000-8000-000000000000', enabled: true },
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      ],
      ['update', 'update-webhook-endpoint', { id: 'not-an-id', enabled: true }, 404, 'WEBHOOK_ENDPOINT_NOT_FOUND'],
      [
        'rotate',
        'rotate-webhook-secret',
        { id: '00000000-0000-4000-8000-000000000000' },
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      ],
      ['test', 'send-test-webhook', { id: 'not-an-id' }, 404, 'WEBHOOK_ENDPOINT_NOT_FOUND'],
    ];
    it.each(badBodies)('%s %s %j → %i %s', async (_what, path, body, status, code) => {
      const before = await snapshot();
      expectError(await adminPost(t, path, body, admin.jar), status, code);
      expect(await snapshot()).toEqual(before);
    });

    it('update with a bad URL or event type changes nothing, even with good fields beside', async () => {
      const { id } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
      const before = await snapshot();
      for (const [body, code] of [
        [{ id, url: 'javascript:alert(1)', enabled: false }, 'INVALID_WEBHOOK_URL'],
        [{ id, eventTypes: ['user.', 'bogus'], description: 'x' }, 'INVALID_WEBHOOK_EVENT_TYPE'],
        [{ id, enabled: false, secretSealed: 'x' }, 'FIELD_NOT_ALLOWED'],
      ] as const)
        expectError(await adminPost(t, 'update-webhook-endpoint', body, admin.jar), 400, code);
      expect(await snapshot()).toEqual(before);
    });

    it('list-webhook-deliveries refuses a cursor it did not issue', async () => {
      const { id } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
      expectError(
        await adminGet(t, `list-webhook-deliveries?endpointId=${id}&cursor=bm9wZQ`, admin.jar),
        400,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('permissions: the admin webhook resource', () => {
    const routes: Array<[method: 'GET' | 'POST', path: string, body: (id: string) => object, code: string]> = [
      [
        'POST',
        'create-webhook-endpoint',
        () => ({ url: URL_OK, eventTypes: ['api_key.'] }),
        'NOT_ALLOWED_TO_CREATE_WEBHOOKS',
      ],
      ['GET', 'list-webhook-endpoints', () => ({}), 'NOT_ALLOWED_TO_READ_WEBHOOKS'],
      ['POST', 'update-webhook-endpoint', (id) => ({ id, enabled: false }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
      ['POST', 'delete-webhook-endpoint', (id) => ({ id }), 'NOT_ALLOWED_TO_DELETE_WEBHOOKS'],
      ['POST', 'rotate-webhook-secret', (id) => ({ id }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
      ['GET', 'list-webhook-deliveries', (id) => ({ endpointId: id }), 'NOT_ALLOWED_TO_READ_WEBHOOKS'],
      ['POST', 'send-test-webhook', (id) => ({ id }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
      ['POST', 'redeliver-webhook', (id) => ({ id, eventId: id }), 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS'],
    ];
    const call = (route: (typeof routes)[number], id: string, jar: SignedUp['jar']) =>
      route[0] === 'GET'
        ? adminGet(t, `${route[1]}?${new URLSearchParams(route[2](id) as Record<string, string>)}`, jar)
        : adminPost(t, route[1], route[2](id), jar);

    it.each(routes)('a plain user is refused %s %s; nothing changes', async (...route) => {
      const { id } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
      const user = await signUp(t.app);
      const before = await snapshot();
      expectError(await call(route, id, user.jar), 403, route[3]);
      expect(await snapshot()).toEqual(before);
    });

    it('a role holding webhook:read lists but may not change', async () => {
      const reader = await signUpAdmin(t, 'reader');
      const { id } = await createEndpoint(t, admin.jar, { url: URL_OK, eventTypes: ['api_key.'] });
      expect((await adminGet(t, 'list-webhook-endpoints', reader.jar)).statusCode).toBe(200);
      expect((await adminGet(t, `list-webhook-deliveries?endpointId=${id}`, reader.jar)).statusCode).toBe(200);
      expectError(
        await adminPost(t, 'rotate-webhook-secret', { id }, reader.jar),
        403,
        'NOT_ALLOWED_TO_UPDATE_WEBHOOKS',
      );
      expectError(
        await adminPost(t, 'create-webhook-endpoint', { url: URL_OK, eventTypes: ['api_key.'] }, reader.jar),
        403,
        'NOT_ALLOWED_TO_CREATE_WEBHOOKS',
      );
    });

    it("an admin's impersonation session holds no webhook permission", async () => {
      const other = await signUp(t.app);
      const jar = admin.jar.clone();
      expect((await adminPost(t, 'impersonate-user', { userId: other.userId }, jar)).statusCode).toBe(200);
      expectError(await adminGet(t, 'list-webhook-endpoints', jar), 403, 'NOT_ALLOWED_TO_READ_WEBHOOKS');
    });
  });
});

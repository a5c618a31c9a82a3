import { createHash, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, post, signUp } from '../../setup/fixtures';
import { signUpAdmin } from '../admin/helpers';
import { createOrg, join, startOrgApp, user } from '../organization/helpers';
import { createKey, expectError, findKeyRow, keyRow, SERVICE_KEY, server } from './helpers';

let t: Awaited<ReturnType<typeof startOrgApp>>;
beforeAll(async () => {
  t = await startOrgApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t?.close());

describe('POST /api-key/create', () => {
  it('gives the full key once; stores only its SHA-256 and its first characters', async () => {
    const u = await signUp(t.app);
    const res = await post(
      t.app,
      '/api-key/create',
      { name: 'ci', prefix: 'ci_', expiresIn: 3600, metadata: { tier: 'pro' } },
      { jar: u.jar },
    );
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      name: 'ci',
      prefix: 'ci_',
      userId: u.userId,
      organizationId: null,
      enabled: true,
      remaining: null,
      metadata: { tier: 'pro' },
      permissions: null,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 60_000,
      rateLimitMax: 600,
      requestCount: 0,
    });
    expect(created.key).toMatch(/^ci_[A-Za-z0-9]{64}$/);
    expect(created.start).toBe(created.key.slice(0, 6));
    expect(Date.parse(created.expiresAt) - t.clock.now()).toBe(3600_000);
    const row = await keyRow(t, created.id);
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('base64url'));
    expect(JSON.stringify(row)).not.toContain(created.key);
    // Every other answer leaves the key out.
    const answers = [
      await get(t.app, `/api-key/get?id=${created.id}`, { jar: u.jar }),
      await get(t.app, '/api-key/list', { jar: u.jar }),
      await post(t.app, '/api-key/update', { keyId: created.id, name: 'ci-2' }, { jar: u.jar }),
      await post(t.app, '/api-key/verify', { key: created.key }, server()),
    ];
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.body).not.toContain(created.key);
      expect(a.body).not.toContain('keyHash');
    }
  });

  it('refuses quotas, limits and permissions from a plain user (server-only properties); nothing is created', async () => {
    const u = await signUp(t.app);
    for (const extra of [
      { remaining: 5 },
      { refillAmount: 5, refillInterval: 60_000 },
      { rateLimitMax: 5 },
      { rateLimitEnabled: false },
      { permissions: { service: ['act'] } },
    ])
      expectError(
        await post(t.app, '/api-key/create', { name: 'x', ...extra }, { jar: u.jar }),
        400,
        'SERVER_ONLY_PROPERTY',
      );
    expect((await get(t.app, '/api-key/list', { jar: u.jar })).json()).toEqual([]);
  });

  it('refuses bad input with catalogue errors', async () => {
    const u = await signUp(t.app);
    const bad = [
      { prefix: 'no spaces' },
      { expiresIn: 0 },
      { name: '' },
      { metadata: 'text' },
      { role: 'admin' },
      { userId: ['a'] },
    ];
    for (const body of bad) {
      const res = await post(t.app, '/api-key/create', body, { jar: u.jar });
      expect([res.statusCode, ['VALIDATION_ERROR', 'FIELD_NOT_ALLOWED']]).toEqual([
        400,
        expect.arrayContaining([res.json().code]),
      ]);
    }
    expectError(await post(t.app, '/api-key/create', {}, { origin: null }), 401, 'UNAUTHORIZED');
    // A user cannot create a key for someone else.
    const other = await signUp(t.app);
    expectError(
      await post(t.app, '/api-key/create', { userId: other.userId }, { jar: u.jar }),
      403,
      'NOT_ALLOWED_TO_MANAGE_API_KEYS',
    );
    expect((await get(t.app, '/api-key/list', { jar: u.jar })).json()).toEqual([]);
    expect((await get(t.app, '/api-key/list', { jar: other.jar })).json()).toEqual([]);
  });

  it('trusted callers (service credential, admin) create keys for any user, with quotas and permissions', async () => {
    const u = await signUp(t.app);
    const byServer = await createKey(
      t,
      { userId: u.userId, remaining: 3, refillAmount: 3, refillInterval: 60_000, permissions: { files: ['read'] } },
      server(),
    );
    expect(byServer).toMatchObject({
      userId: u.userId,
      remaining: 3,
      refillAmount: 3,
      permissions: { files: ['read'] },
    });
    const admin = await signUpAdmin(t);
    const byAdmin = await createKey(t, { userId: u.userId, rateLimitMax: 2, rateLimitTimeWindow: 5000 }, admin);
    expect(byAdmin).toMatchObject({ userId: u.userId, rateLimitMax: 2, rateLimitTimeWindow: 5000 });
    expectError(await post(t.app, '/api-key/create', { userId: randomUUID() }, server()), 404, 'USER_NOT_FOUND');
    expectError(await post(t.app, '/api-key/create', {}, server()), 400, 'VALIDATION_ERROR');
    expectError(
      await post(t.app, '/api-key/create', { userId: u.userId }, server('not-a-service-key-0000')),
      403,
      'SERVER_ONLY',
    );
    const ids = (await get(t.app, '/api-key/list', { jar: u.jar })).json().map((k: { id: string }) => k.id);
    expect(ids.sort()).toEqual([byServer.id, byAdmin.id].sort());
  });
});

describe('get, list, update, delete', () => {
  it('an owner manages their key; another user gets "API Key not found" and changes nothing', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const k = await createKey(t, { name: 'mine' }, owner);
    expect((await get(t.app, `/api-key/get?id=${k.id}`, { jar: owner.jar })).json()).toMatchObject({
      id: k.id,
      name: 'mine',
    });
    for (const res of [
      await get(t.app, `/api-key/get?id=${k.id}`, { jar: other.jar }),
      await post(t.app, '/api-key/update', { keyId: k.id, name: 'theirs' }, { jar: other.jar }),
      await post(t.app, '/api-key/delete', { keyId: k.id }, { jar: other.jar }),
      await get(t.app, `/api-key/get?id=${randomUUID()}`, { jar: owner.jar }),
      await get(t.app, '/api-key/get?id=not-an-id', { jar: owner.jar }),
    ])
      expectError(res, 404, 'KEY_NOT_FOUND', 'API Key not found');
    expect((await keyRow(t, k.id)).name).toBe('mine');

    const updated = await post(
      t.app,
      '/api-key/update',
      { keyId: k.id, name: 'renamed', enabled: false, expiresIn: 60, metadata: { a: 1 } },
      { jar: owner.jar },
    );
    expect(updated.json()).toMatchObject({ name: 'renamed', enabled: false, metadata: { a: 1 } });
    expect(Date.parse(updated.json().expiresAt) - t.clock.now()).toBe(60_000);
    expect(
      (await post(t.app, '/api-key/update', { keyId: k.id, expiresIn: null }, { jar: owner.jar })).json().expiresAt,
    ).toBeNull();
    expectError(await post(t.app, '/api-key/update', { keyId: k.id }, { jar: owner.jar }), 400, 'NO_DATA_TO_UPDATE');
    expectError(
      await post(t.app, '/api-key/update', { keyId: k.id, remaining: 100 }, { jar: owner.jar }),
      400,
      'SERVER_ONLY_PROPERTY',
    );
    expect((await keyRow(t, k.id)).remaining).toBeNull();

    expect((await post(t.app, '/api-key/delete', { keyId: k.id }, { jar: owner.jar })).json()).toEqual({
      success: true,
    });
    expect(await findKeyRow(t, k.id)).toBeNull();
    expectError(await post(t.app, '/api-key/delete', { keyId: k.id }, { jar: owner.jar }), 404, 'KEY_NOT_FOUND');
  });

  it("an admin and the service credential manage any key and list any user's keys", async () => {
    const owner = await signUp(t.app);
    const admin = await signUpAdmin(t);
    const k = await createKey(t, {}, owner);
    expect((await get(t.app, `/api-key/list?userId=${owner.userId}`, { jar: admin.jar })).json()).toHaveLength(1);
    expect((await get(t.app, `/api-key/list?userId=${owner.userId}`, server())).json()).toHaveLength(1);
    expectError(
      await get(t.app, `/api-key/list?userId=${owner.userId}`, { jar: (await signUp(t.app)).jar }),
      403,
      'NOT_ALLOWED_TO_MANAGE_API_KEYS',
    );
    const res = await post(
      t.app,
      '/api-key/update',
      { keyId: k.id, remaining: 7, permissions: { a: ['b'] } },
      { jar: admin.jar },
    );
    expect(res.json()).toMatchObject({ remaining: 7, permissions: { a: ['b'] } });
    expect((await get(t.app, `/api-key/get?id=${k.id}`, server())).json().remaining).toBe(7);
    expect((await post(t.app, '/api-key/delete', { keyId: k.id }, server())).json()).toEqual({ success: true });
    expect(await findKeyRow(t, k.id)).toBeNull();
  });
});

describe('organization keys', () => {
  it('owners and admins of the organization manage its keys; members and outsiders cannot', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const orgAdmin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    const outsider = await user(t);
    const k = await createKey(t, { name: 'org key', organizationId: org.id }, owner);
    expect(k).toMatchObject({ organizationId: org.id, userId: null });
    expect(
      (await get(t.app, `/api-key/list?organizationId=${org.id}`, { jar: orgAdmin.jar }))
        .json()
        .map((x: { id: string }) => x.id),
    ).toEqual([k.id]);
    expect(
      (await post(t.app, '/api-key/update', { keyId: k.id, name: 'renamed' }, { jar: orgAdmin.jar })).json().name,
    ).toBe('renamed');
    for (const u of [member, outsider]) {
      expectError(
        await post(t.app, '/api-key/create', { organizationId: org.id }, { jar: u.jar }),
        403,
        'NOT_ALLOWED_TO_MANAGE_API_KEYS',
      );
      expectError(
        await get(t.app, `/api-key/list?organizationId=${org.id}`, { jar: u.jar }),
        403,
        'NOT_ALLOWED_TO_MANAGE_API_KEYS',
      );
      expectError(await post(t.app, '/api-key/delete', { keyId: k.id }, { jar: u.jar }), 404, 'KEY_NOT_FOUND');
    }
    expectError(
      await post(t.app, '/api-key/create', { organizationId: randomUUID() }, server()),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expect((await post(t.app, '/api-key/delete', { keyId: k.id }, { jar: orgAdmin.jar })).json()).toEqual({
      success: true,
    });
  });
});

describe('without the organization feature', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ features: { organization: false, admin: true } });
  });
  afterAll(() => off?.close());

  it('organization keys are refused', async () => {
    const u = await signUp(off.app);
    expectError(
      await post(off.app, '/api-key/create', { organizationId: randomUUID() }, { jar: u.jar }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
  });
});

import { newId } from '../../../src/crypto/random';
import { startTestApp, type TestApp } from '../../setup/app';
import { type CookieJar, get, signUp } from '../../setup/fixtures';
import { expectError, signUpAdmin } from '../admin/helpers';
import { record, testSource } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const list = (jar: CookieJar, query: string) => get(t.app, `/admin/list-events?${query}`, { jar });

/** Events of one made-up actor, one second apart (oldest first), of the given types. */
async function seedActor(types: Array<Parameters<typeof record>[1]['type']>, organizationId: string | null = null) {
  const actorId = newId();
  const targets: string[] = [];
  for (const type of types) {
    const target = newId();
    targets.push(target);
    await record(t, { type, source: testSource(actorId), target: { type: 'user', id: target }, organizationId });
    t.clock.advance(1);
  }
  return { actorId, targets };
}

describe('GET admin/list-events', () => {
  it("answers an actor's events newest first with every field, paged by an opaque cursor", async () => {
    const admin = await signUpAdmin(t);
    const { actorId, targets } = await seedActor(['user.signed_up', 'admin.user.banned', 'admin.user.unbanned']);
    const first = await list(admin.jar, `actorId=${actorId}&limit=2`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.events.map((e: { type: string }) => e.type)).toEqual(['admin.user.unbanned', 'admin.user.banned']);
    expect(page1.events[0]).toMatchObject({
      id: expect.any(String),
      occurredAt: expect.stringMatching(/Z$/),
      actor: { type: 'user', id: actorId, impersonatorId: null },
      target: { type: 'user', id: targets[2] },
      organizationId: null,
      ipAddress: '192.0.2.1',
      userAgent: 'jest',
      requestId: 'req-test',
      details: {},
    });
    expect(Date.parse(page1.events[0].occurredAt)).toBeGreaterThan(Date.parse(page1.events[1].occurredAt));
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await list(admin.jar, `actorId=${actorId}&limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.events.map((e: { type: string }) => e.type)).toEqual(['user.signed_up']);
    expect(page2.nextCursor).toBeNull();
  });

  it('filters by target, type prefix, organization and time range (all ANDed)', async () => {
    const admin = await signUpAdmin(t);
    const organizationId = newId();
    const start = t.clock.now();
    const { actorId, targets } = await seedActor(
      ['admin.user.banned', 'user.signed_in', 'admin.user.role_set', 'organization.created'],
      organizationId,
    );
    const types = async (query: string) => {
      const res = await list(admin.jar, `actorId=${actorId}&${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().events.map((e: { type: string }) => e.type);
    };
    expect(await types(`targetId=${targets[1]}`)).toEqual(['user.signed_in']);
    expect(await types(`targetType=user&targetId=${targets[1]}`)).toEqual(['user.signed_in']);
    expect(await types(`targetType=session&targetId=${targets[1]}`)).toEqual([]);
    expect(await types('type=admin.')).toEqual(['admin.user.role_set', 'admin.user.banned']);
    expect(await types('type=admin.user.banned')).toEqual(['admin.user.banned']);
    expect(await types('type=nothing.like.this')).toEqual([]);
    expect(await types(`organizationId=${organizationId}&type=organization`)).toEqual(['organization.created']);
    expect(await types(`organizationId=${newId()}`)).toEqual([]);
    const iso = (s: number) => new Date(start + s * 1000).toISOString();
    expect(await types(`from=${iso(1)}&to=${iso(3)}`)).toEqual(['admin.user.role_set', 'user.signed_in']);
    // the filters can also be read without an actor
    const byOrg = await list(admin.jar, `organizationId=${organizationId}`);
    expect(byOrg.json().events).toHaveLength(4);
  });

  it('pages a type prefix across its types in time order', async () => {
    const admin = await signUpAdmin(t);
    const { actorId } = await seedActor([
      'admin.user.banned',
      'admin.user.unbanned',
      'admin.user.banned',
      'admin.user.role_set',
      'user.signed_in',
    ]);
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const res = (await list(admin.jar, `actorId=${actorId}&type=admin.user&limit=1${cursor}`)).json();
      seen.push(...res.events.map((e: { type: string }) => e.type));
      if (!res.nextCursor) break;
      cursor = `&cursor=${res.nextCursor}`;
    }
    expect(seen).toEqual(['admin.user.role_set', 'admin.user.banned', 'admin.user.unbanned', 'admin.user.banned']);
  });

  it('a bad cursor or filter is a catalogue validation error naming the field', async () => {
    const admin = await signUpAdmin(t);
    for (const cursor of [
      'nope',
      Buffer.from('["x","y"]').toString('base64url'),
      Buffer.from('{}').toString('base64url'),
    ]) {
      const res = await list(admin.jar, `cursor=${cursor}`);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.json().details).toEqual([{ field: 'cursor', problem: expect.any(String) }]);
    }
    expectError(await list(admin.jar, 'from=yesterday'), 400, 'VALIDATION_ERROR');
    expectError(await list(admin.jar, 'limit=0'), 400, 'VALIDATION_ERROR');
    expectError(await list(admin.jar, 'limit=201'), 400, 'VALIDATION_ERROR');
    expectError(await list(admin.jar, 'organizationId=not-an-id'), 400, 'VALIDATION_ERROR');
    expectError(await list(admin.jar, 'unknown=1'), 400, expect.any(String) as unknown as string);
  });

  it('needs the admin audit:read permission: 403 for a user, 401 without a session, 403 for an impersonation session', async () => {
    const u = await signUp(t.app);
    expectError(await list(u.jar, ''), 403, 'NOT_ALLOWED_TO_LIST_EVENTS', 'You are not allowed to list audit events');
    expectError(await get(t.app, '/admin/list-events'), 401, 'UNAUTHORIZED');
    const admin = await signUpAdmin(t);
    const other = await signUp(t.app);
    const imp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/impersonate-user',
      headers: { cookie: admin.jar.header(), origin: 'http://localhost:3000' },
      payload: { userId: other.userId },
    });
    expect(imp.statusCode).toBe(200);
    expectError(
      await get(t.app, '/admin/list-events', { bearer: imp.json().session.token }),
      403,
      'NOT_ALLOWED_TO_LIST_EVENTS',
    );
  });

  it('a custom admin role may hold audit:read alone', async () => {
    const app = await startTestApp({ admin: { roles: { auditor: { audit: ['read'] } } } });
    try {
      const auditor = await signUp(app.app);
      await app.ctx.features.admin!.users.setRole(null, auditor.userId, 'auditor');
      expect((await get(app.app, '/admin/list-events?limit=1', { jar: auditor.jar })).statusCode).toBe(200);
      expect((await get(app.app, '/admin/list-users', { jar: auditor.jar })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
  it('names each user actor (and the admin behind an impersonation) by email and name, one lookup for the whole page', async () => {
    const admin = await signUpAdmin(t);
    const ada = await signUp(t.app, { name: 'Ada Lovelace' });
    const bob = await signUp(t.app, { name: 'Bob Builder' });
    const gone = newId();
    const organizationId = newId();
    const seed = async (source: Parameters<typeof record>[1]['source'], organization = organizationId) => {
      await record(t, { type: 'organization.updated', source, target: null, organizationId: organization });
      t.clock.advance(1);
    };
    await seed(testSource(ada.userId));
    await seed({ ...testSource(), actor: { type: 'user', id: bob.userId, impersonatorId: admin.userId } });
    await seed(testSource(gone));
    await seed({ ...testSource(), actor: { type: 'api_key', id: 'key-1', userId: ada.userId } });
    await seed({ ...testSource(), actor: { type: 'system' } });
    const res = await list(admin.jar, `organizationId=${organizationId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().events.map((e: { actor: unknown }) => e.actor)).toEqual([
      { type: 'system', id: null, impersonatorId: null, email: null, name: null, impersonatorEmail: null },
      { type: 'api_key', id: 'key-1', impersonatorId: null, email: null, name: null, impersonatorEmail: null },
      { type: 'user', id: gone, impersonatorId: null, email: null, name: null, impersonatorEmail: null },
      {
        type: 'user',
        id: bob.userId,
        impersonatorId: admin.userId,
        email: bob.email,
        name: 'Bob Builder',
        impersonatorEmail: admin.email,
      },
      {
        type: 'user',
        id: ada.userId,
        impersonatorId: null,
        email: ada.email,
        name: 'Ada Lovelace',
        impersonatorEmail: null,
      },
    ]);
    // The statements of a page do not grow with its actors: a page of one user actor costs as many as this one.
    const single = newId();
    await seed(testSource(ada.userId), single);
    const statements = async (query: string) => {
      const spy = jest.spyOn(t.ctx.sql, 'query');
      try {
        expect((await list(admin.jar, query)).statusCode).toBe(200);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    expect(await statements(`organizationId=${organizationId}`)).toBe(await statements(`organizationId=${single}`));
  });
});

import { CookieJar, get, post, signUp } from '../../setup/fixtures';
import { SERVICE_KEY, server } from '../api-key/helpers';
import { createOrg, startOrgApp, user } from '../organization/helpers';
import { providerUser, type SocialTest, startFlow, startSocialTest } from '../social/helpers';
import { eventsAbout, type StoredEvent } from './helpers';

describe('API key and signing key events (docs/audit.md)', () => {
  let t: Awaited<ReturnType<typeof startOrgApp>>;
  beforeAll(async () => {
    t = await startOrgApp({}, { SERVICE_API_KEY: SERVICE_KEY });
  });
  afterAll(() => t?.close());

  const about = async (keyId: string): Promise<StoredEvent[]> => eventsAbout(t, keyId);

  it('created, updated and deleted, with the key as target and never the key itself', async () => {
    const u = await signUp(t.app);
    const created = await post(t.app, '/api-key/create', { name: 'ci', prefix: 'ci_' }, { jar: u.jar });
    expect(created.statusCode).toBe(200);
    const { id, key, start } = created.json();
    expect((await post(t.app, '/api-key/update', { keyId: id, name: 'ci-2' }, { jar: u.jar })).statusCode).toBe(200);
    expect((await post(t.app, '/api-key/delete', { keyId: id }, { jar: u.jar })).statusCode).toBe(200);
    const events = await about(id);
    expect(events.map((e) => [e.type, e.actor_type, e.actor_id, e.target_type, e.target_id])).toEqual([
      ['api_key.created', 'user', u.userId, 'api_key', id],
      ['api_key.updated', 'user', u.userId, 'api_key', id],
      ['api_key.deleted', 'user', u.userId, 'api_key', id],
    ]);
    expect(events.map((e) => e.details)).toEqual([
      { ownerId: u.userId, name: 'ci', prefix: 'ci_' },
      { ownerId: u.userId, fields: ['name'] },
      { ownerId: u.userId, name: 'ci-2' },
    ]);
    for (const e of events) {
      expect(JSON.stringify(e)).not.toContain(key);
      expect(JSON.stringify(e.details)).not.toContain(start);
    }
  });

  it("an organization's key names the organization; a server's call names the service credential", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const res = await post(t.app, '/api-key/create', { organizationId: org.id, name: 'org key' }, server());
    expect(res.statusCode).toBe(200);
    expect((await about(res.json().id))[0]).toMatchObject({
      type: 'api_key.created',
      actor_type: 'service',
      actor_id: 'static',
      organization_id: org.id,
    });
  });

  it('a signing key rotation records signing_key.rotated by the system', async () => {
    const kid = await t.ctx.features.jwt.keys.rotate();
    const [event] = await about(kid);
    expect(event).toMatchObject({
      type: 'signing_key.rotated',
      actor_type: 'system',
      target_type: 'signing_key',
      target_id: kid,
      details: { alg: t.config.jwt.alg, reason: 'manual' },
    });
  });
});

describe('social account events', () => {
  let s: SocialTest;
  beforeAll(async () => {
    s = await startSocialTest();
  });
  afterAll(() => s?.close());

  it('link-social records user.account_linked, unlink-account user.account_unlinked; a provider sign-up user.signed_up', async () => {
    const local = await signUp(s.t.app, { email: 'erin@provider.example' });
    providerUser(s.op, 'erin');
    s.op.defaultLogin = 'erin';
    const url = await startFlow(s, local.jar, { callbackURL: '/settings' }, '/link-social');
    const back = await s.op.authorize(url);
    const res = await get(s.t.app, `${back.pathname.replace('/api/auth', '')}${back.search}`, { jar: local.jar });
    expect(res.headers.location).toBe('/settings');
    expect((await post(s.t.app, '/unlink-account', { providerId: 'loop' }, { jar: local.jar })).statusCode).toBe(200);
    const events = (await eventsAbout(s.t, local.userId)).slice(-2);
    expect(events.map((e) => [e.type, e.actor_id, e.details])).toEqual([
      ['user.account_linked', local.userId, { providerId: 'loop', accountId: 'erin', via: 'link-social' }],
      ['user.account_unlinked', local.userId, { providerId: 'loop', accountId: 'erin' }],
    ]);
    for (const e of events) expect(Object.keys(e.details).filter((k) => /token|secret/i.test(k))).toEqual([]);

    providerUser(s.op, 'frank');
    s.op.defaultLogin = 'frank';
    const jar = new CookieJar();
    const signInUrl = await startFlow(s, jar, { loginHint: 'frank' });
    const cb = await s.op.authorize(new URL(signInUrl).toString());
    const done = await get(s.t.app, `${cb.pathname.replace('/api/auth', '')}${cb.search}`, { jar });
    expect(done.statusCode).toBe(302);
    const [row] = await s.t.ctx.sql.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      'frank@provider.example',
    ]);
    const types = (await eventsAbout(s.t, row.id)).map((e) => [e.type, e.details.method]);
    expect(types).toEqual([
      ['user.signed_up', 'loop'],
      ['user.signed_in', 'social:loop'],
    ]);
  });
});

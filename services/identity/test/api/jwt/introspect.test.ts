import { generateKeyPair, SignJWT } from 'jose';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { get, post, signIn, signUp } from '../../setup/fixtures';

/** POST /introspect and /introspect/batch for internal services (service credential). */
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnopqrstuvwxyz';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t.close());

const introspect = (body: object, headers: Record<string, string> = { 'x-api-key': SERVICE_KEY }) =>
  t.app.inject({ method: 'POST', url: '/api/auth/introspect', headers, payload: body });
const active = async (token: string) => (await introspect({ token })).json().active as boolean;
const jwtOf = async (bearer: string) => (await get(t.app, '/token', { bearer })).json().token as string;

describe('POST /introspect', () => {
  it('refuses callers without the service credential, and browsers even with it', async () => {
    const u = await signUp(t.app);
    const callers: Array<Record<string, string>> = [
      {},
      { 'x-api-key': 'wrong'.repeat(10) },
      { 'x-api-key': SERVICE_KEY, origin: PUBLIC_URL },
    ];
    for (const headers of callers) {
      const res = await introspect({ token: u.token }, headers);
      expect([res.statusCode, res.json().code]).toEqual([403, 'SERVER_ONLY']);
    }
  });

  it('answers a session token in the RFC 7662 shape', async () => {
    const u = await signUp(t.app);
    const { session } = (await get(t.app, '/get-session', { bearer: u.token })).json();
    const res = await introspect({ token: u.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      active: true,
      token_type: 'session_token',
      sub: u.userId,
      sid: session.id,
      exp: Math.floor(Date.parse(session.expiresAt) / 1000),
      iat: Math.floor(Date.parse(session.createdAt) / 1000),
      email: u.email,
      role: 'user',
      activeOrganizationId: null,
      impersonatedBy: null,
    });
  });

  it('answers a /token JWT with its own times and the live session', async () => {
    const u = await signUp(t.app);
    const jwt = await jwtOf(u.token);
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
    const res = await introspect({ token: jwt });
    expect(res.json()).toEqual({
      active: true,
      token_type: 'jwt',
      sub: u.userId,
      sid: claims.sid,
      exp: claims.exp,
      iat: claims.iat,
      iss: PUBLIC_URL,
      aud: PUBLIC_URL,
      jti: claims.jti,
      email: u.email,
      role: 'user',
      activeOrganizationId: null,
      impersonatedBy: null,
    });
  });

  it('reflects a revocation at once, for the session token and its JWT, and uses the Redis fast path', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    const jwt = await jwtOf(other.token!);
    const sid = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).sid;
    expect([await active(other.token!), await active(jwt)]).toEqual([true, true]);
    // Second lookups by id and by token are Redis hits: no PostgreSQL read per introspection.
    expect((await t.ctx.features.session.sessions.resolveById(sid, { source: 'cache', refresh: false })).from).toBe(
      'redis',
    );
    expect(
      (await t.ctx.features.session.sessions.resolve(other.token!, { source: 'cache', refresh: false })).from,
    ).toBe('redis');

    const revoked = await post(t.app, '/revoke-session', { token: other.token }, { jar: u.jar });
    expect(revoked.statusCode).toBe(200);
    expect(await introspect({ token: other.token! }).then((r) => r.json())).toEqual({ active: false });
    expect(await introspect({ token: jwt }).then((r) => r.json())).toEqual({ active: false });
    expect(await active(u.token)).toBe(true); // the other session lives on
  });

  it('answers { active: false } for garbage, forged, foreign-key and expired tokens', async () => {
    const u = await signUp(t.app);
    const jwt = await jwtOf(u.token);
    const [h, p, s] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const { privateKey } = await generateKeyPair('EdDSA');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: JSON.parse(Buffer.from(h, 'base64url').toString()).kid })
      .sign(privateKey);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    const sidOfAnother = await new SignJWT({ ...claims, sid: 'not-a-uuid' })
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(privateKey);
    for (const token of ['nope', `${h}.${edited}.${s}`, foreign, none, sidOfAnother, 'a.b.c', 'x'.repeat(32)])
      expect([token, await introspect({ token }).then((r) => r.json())]).toEqual([token, { active: false }]);
    t.clock.advance(901);
    try {
      expect([await active(jwt), await active(u.token)]).toEqual([false, true]);
    } finally {
      t.clock.advance(-901);
    }
  });

  it('refuses a malformed body with a catalogue error', async () => {
    for (const body of [{}, { token: '' }, { token: 1 }, { token: 'x'.repeat(5000) }, { token: 'a', extra: 1 }]) {
      const res = await introspect(body);
      expect([res.statusCode, res.json().code]).toEqual([
        400,
        expect.stringMatching(/VALIDATION_ERROR|FIELD_NOT_ALLOWED/),
      ]);
    }
  });
});

describe('POST /introspect/batch', () => {
  const batch = (tokens: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/introspect/batch',
      headers: { 'x-api-key': SERVICE_KEY },
      payload: { tokens },
    });

  it('answers many tokens in order', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const jwt = await jwtOf(b.token);
    const res = await batch([a.token, 'garbage', jwt, a.token]);
    expect(res.statusCode).toBe(200);
    const results = res.json().results;
    expect(results.map((r: { active: boolean; sub?: string }) => [r.active, r.sub])).toEqual([
      [true, a.userId],
      [false, undefined],
      [true, b.userId],
      [true, a.userId],
    ]);
  });

  it('takes at most 100 tokens, and needs the service credential', async () => {
    expect((await batch(Array(101).fill('x'))).statusCode).toBe(400);
    expect((await batch([])).statusCode).toBe(400);
    expect((await batch(Array(100).fill('x'))).json().results).toHaveLength(100);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/introspect/batch', payload: { tokens: ['x'] } });
    expect(res.statusCode).toBe(403);
  });
});

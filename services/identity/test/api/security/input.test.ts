import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../src/app';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, get, PASSWORD, post, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';

/** Hostile input and mass assignment: hostile bodies, headers and cookies get a catalogue error, never a 500. */
let t: TestApp;
let boom: FastifyInstance; // the real app plus one route that fails unexpectedly
beforeAll(async () => {
  t = await startTestApp();
  boom = await buildApp(t.ctx, { logger: false });
  boom.get('/api/auth/boom', async () => t.ctx.sql.query('SELECT secret_column FROM no_such_table'));
  await boom.ready();
});
afterAll(async () => {
  await boom?.close();
  await t?.close();
});

const usersWithEmail = async (email: string) =>
  (
    await t.ctx.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email])
  )[0].n;

const rawSignUp = (payload: string, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: PUBLIC_URL, 'content-type': contentType },
    payload,
  });

function expectError(res: LightMyRequestResponse, status: number, code: string, message: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ code, message });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

describe('request bodies', () => {
  it('answers malformed JSON with 400 INVALID_JSON and creates nothing', async () => {
    const email = uniqueEmail('badjson');
    for (const body of [`{"name":"N","email":"${email}","password":"${PASSWORD}"`, `{"email":'${email}'}`, '']) {
      expectError(await rawSignUp(body), 400, 'INVALID_JSON', 'Malformed request body');
    }
    expect(await usersWithEmail(email)).toBe(0);
  });

  it.each([
    ['__proto__', '{"__proto__":{"role":"admin"}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"role":"admin"}}}'],
  ])('refuses a %s key on sign-up with 400 INVALID_JSON: no user, no pollution', async (_label, poison) => {
    const email = uniqueEmail('proto');
    const body = `{"name":"N","email":"${email}","password":"${PASSWORD}",${poison.slice(1, -1)}}`;
    expectError(await rawSignUp(body), 400, 'INVALID_JSON', 'Malformed request body');
    expect(await usersWithEmail(email)).toBe(0);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'role')).toBe(false);
  });

  it.each([
    ['role', 'admin'],
    ['emailVerified', true],
    ['banned', false],
    ['id', '00000000-0000-4000-8000-000000000000'],
  ])('refuses the client-set field %s on sign-up with FIELD_NOT_ALLOWED', async (field, value) => {
    const email = uniqueEmail('mass');
    const res = await post(t.app, '/sign-up/email', { name: 'N', email, password: PASSWORD, [field]: value });
    expectError(res, 400, 'FIELD_NOT_ALLOWED', 'Field not allowed');
    expect(res.json().details).toEqual([{ field: `body.${field}`, problem: 'not allowed' }]);
    expect(await usersWithEmail(email)).toBe(0);
  });

  it('answers a body over 64 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const email = uniqueEmail('big');
    const body = JSON.stringify({ name: 'x'.repeat(70 * 1024), email, password: PASSWORD });
    expectError(await rawSignUp(body), 413, 'PAYLOAD_TOO_LARGE', 'Request body too large');
    expect(await usersWithEmail(email)).toBe(0);
  });
});

describe('emails', () => {
  it.each(['a@b.co, c@d.co', 'a@b.co\r\nBcc: x@y.z', '"quoted"@example.com', 'a＠example.com', 'a@b', '', 'a@b.co\n'])(
    'refuses %j with 400 INVALID_EMAIL on sign-up and sign-in, creating nothing',
    async (email) => {
      const up = await post(t.app, '/sign-up/email', { name: 'N', email, password: PASSWORD });
      expect(up.statusCode).toBe(400);
      expect(up.json()).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' });
      const inn = await post(t.app, '/sign-in/email', { email, password: PASSWORD });
      expect(inn.json()).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' });
      if (email) expect(await usersWithEmail(email)).toBe(0);
      expect(await usersWithEmail('c@d.co')).toBe(0);
      expect(await usersWithEmail('a@b.co')).toBe(0);
    },
  );
});

describe('wrong types', () => {
  it.each([
    ['email', ['a@b.co']],
    ['password', 12345678],
    ['name', { first: 'N' }],
    ['rememberMe', 'yes'],
  ])('answers %s of the wrong type with 400 VALIDATION_ERROR naming the field', async (field, value) => {
    const email = uniqueEmail('types');
    const res = await post(t.app, '/sign-up/email', { name: 'N', email, password: PASSWORD, [field]: value });
    expectError(res, 400, 'VALIDATION_ERROR', 'Invalid request');
    expect(res.json().details).toEqual([expect.objectContaining({ field: `body.${field}` })]);
    expect(await usersWithEmail(email)).toBe(0);
  });

  it('answers a 10 000-character password with 400 PASSWORD_TOO_LONG on sign-up (refused before hashing)', async () => {
    const email = uniqueEmail('long');
    const res = await post(t.app, '/sign-up/email', { name: 'N', email, password: 'p'.repeat(10_000) });
    expectError(res, 400, 'PASSWORD_TOO_LONG', 'Password too long');
    expect(await usersWithEmail(email)).toBe(0);
  });

  it('answers a 10 000-character password on sign-in like any wrong password: 401, no session', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD + 'p'.repeat(10_000) });
    expectError(res, 401, 'INVALID_EMAIL_OR_PASSWORD', 'Invalid email or password');
    const rows = await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [u.userId]);
    expect(rows).toHaveLength(1); // only the sign-up session
  });
});

describe('HTML and script in input', () => {
  it('stores an HTML name verbatim and returns it only as JSON', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const u = await signUp(t.app, { name });
    const rows = await t.ctx.sql.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [u.userId]);
    expect(rows[0].name).toBe(name);
    const res = await get(t.app, '/get-session', { bearer: u.token });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json().user.name).toBe(name);
  });

  it('escapes the /error page code and sends a CSP', async () => {
    const res = await get(t.app, `/error?error=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toMatch(/<script/i);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).not.toContain('script-src');
  });
});

describe('malformed credentials on /get-session', () => {
  it.each([
    ['a bare scheme', 'Bearer'],
    ['an empty token', 'Bearer  '],
    ['a dotted forgery', 'Bearer a.b.c'],
    ['another scheme', 'Basic xxx'],
    ['a 10 KB header', `Bearer ${'a'.repeat(10 * 1024)}`],
    ['a control character', 'Bearer \u0001abcdefghijklmnopqrstu'],
  ])('Authorization with %s → 200 null', async (_label, authorization) => {
    const res = await get(t.app, '/get-session', { headers: { authorization } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it.each([
    ['garbage', '%%%;;;===;\u00ff'],
    ['an empty token', `${TOKEN_COOKIE}=`],
    ['a bad percent-encoding', `${TOKEN_COOKIE}=%E0%A4%A`],
    ['a huge cookie', `${TOKEN_COOKIE}=${'x'.repeat(12_000)}`],
    ['a forged signature', `${TOKEN_COOKIE}=abc.def`],
  ])('a cookie with %s → 200 null', async (_label, cookie) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it('a valid cookie beside garbage still works (positive control)', async () => {
    const u = await signUp(t.app);
    const jar = new CookieJar();
    jar.cookies.set(TOKEN_COOKIE, u.jar.get(TOKEN_COOKIE)!);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: `junk=%%%; ${jar.header()}` },
    });
    expect(res.json()?.user.id).toBe(u.userId);
  });
});

describe('errors and headers', () => {
  it('answers an unknown route with 404 NOT_FOUND', async () => {
    for (const url of ['/api/auth/no-such-route', '/nothing-here', '/api/auth/sign-in/email/extra']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { origin: PUBLIC_URL }, payload: {} });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    }
  });

  it('answers an unexpected failure with a generic 500: no stack, no SQL', async () => {
    const res = await boom.inject({ method: 'GET', url: '/api/auth/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
    expect(res.body).not.toMatch(/no_such_table|secret_column|SELECT|stack|at \/|\.ts:/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('sends the security headers on every kind of answer', async () => {
    const u = await signUp(t.app);
    const answers = await Promise.all([
      get(t.app, '/get-session', { bearer: u.token }),
      get(t.app, '/get-session'),
      get(t.app, '/ok'),
      get(t.app, '/error?error=x'),
      t.app.inject({ method: 'GET', url: '/nothing-here' }),
      rawSignUp('{'),
      post(t.app, '/sign-in/email', { email: u.email, password: 'wrong password' }),
      post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD }),
      post(t.app, '/update-user', { name: 'X' }, { jar: u.jar, origin: 'https://evil.example.com' }),
      boom.inject({ method: 'GET', url: '/api/auth/boom' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 404, 400, 401, 200, 403, 500]);
    for (const res of answers) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

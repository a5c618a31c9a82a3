import type { LightMyRequestResponse } from 'fastify';
import { PUBLIC_URL, startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { PASSWORD, post, type SignedUp, sessionOf, signUp, uniqueEmail } from '../../setup/fixtures';

/** Cross-site requests: untrusted/null Origin, Fetch-Metadata, simple content types, login CSRF. */
let t: TestApp;
let open: TestApp; // same service with the origin check switched off
beforeAll(async () => {
  t = await startTestApp();
  open = await startTestApp({ advanced: { disableOriginCheck: true } });
});
afterAll(async () => {
  await t?.close();
  await open?.close();
});

const EVIL = 'https://evil.example.com';
const INVALID_ORIGIN = { code: 'INVALID_ORIGIN', message: 'Invalid origin' };
const NULL_ORIGIN = { code: 'MISSING_OR_NULL_ORIGIN', message: 'Missing or null Origin' };

const count = async (app: TestApp, sql: string, param: string) =>
  (await app.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [param]))[0].n;
const usersWithEmail = (app: TestApp, email: string) => count(app, 'users WHERE email = $1', email);
const sessionsOfUser = (app: TestApp, userId: string) => count(app, 'sessions WHERE user_id = $1', userId);
const nameOf = async (userId: string) =>
  (await t.ctx.sql.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [userId]))[0].name;

function expectError(res: LightMyRequestResponse, status: number, body: { code: string; message: string }) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toEqual(body);
}

/** The victim's session row is intact and still answers on the PostgreSQL/Redis path (Bearer). */
async function expectUntouched(u: SignedUp) {
  expect(await count(t, 'sessions WHERE token = $1', u.token)).toBe(1);
  expect((await sessionOf(t.app, { bearer: u.token }))?.user.id).toBe(u.userId);
  expect(await nameOf(u.userId)).toBe('Test User');
}

describe('origin check on cookie-carrying POSTs', () => {
  it.each([
    ['/revoke-sessions', undefined],
    ['/update-user', { name: 'Mallory' }],
    ['/sign-out', undefined],
    ['/revoke-other-sessions', undefined],
  ])('%s from an untrusted Origin is refused and changes nothing', async (url, body) => {
    const u = await signUp(t.app);
    const res = await post(t.app, url, body, { jar: u.jar, origin: EVIL });
    expectError(res, 403, INVALID_ORIGIN);
    expect(res.headers['set-cookie']).toBeUndefined();
    await expectUntouched(u);
  });

  it('refuses Origin: null (sandboxed frame) with MISSING_OR_NULL_ORIGIN', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/revoke-sessions', undefined, {
      jar: u.jar,
      headers: { origin: 'null' },
      origin: null,
    });
    expectError(res, 403, NULL_ORIGIN);
    await expectUntouched(u);
  });

  it('refuses cookies with neither Origin nor Referer', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/update-user', { name: 'Mallory' }, { jar: u.jar, origin: null });
    expectError(res, 403, NULL_ORIGIN);
    await expectUntouched(u);
  });

  it('accepts cookies with a trusted Referer and no Origin', async () => {
    const u = await signUp(t.app);
    const headers = { referer: `${TRUSTED_ORIGIN}/settings?tab=profile` };
    const res = await post(t.app, '/update-user', { name: 'Via Referer' }, { jar: u.jar, origin: null, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect(await nameOf(u.userId)).toBe('Via Referer');
  });

  it.each([`${EVIL}/settings`, 'http://localhost:3000.evil.com/x', 'https://app.example.test.evil.com/', 'not a url'])(
    'refuses cookies with the untrusted Referer %s',
    async (referer) => {
      const u = await signUp(t.app);
      const res = await post(
        t.app,
        '/update-user',
        { name: 'Mallory' },
        { jar: u.jar, origin: null, headers: { referer } },
      );
      expectError(res, 403, INVALID_ORIGIN);
      await expectUntouched(u);
    },
  );

  it.each([
    'http://localhost:3000.evil.com',
    'https://app.example.test.evil.com',
    'http://localhost:3001',
    'https://localhost:3000',
    'http://app.example.test',
    'https://evil.app.example.test',
  ])('refuses the look-alike Origin %s', async (origin) => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/update-user', { name: 'Mallory' }, { jar: u.jar, origin });
    expectError(res, 403, INVALID_ORIGIN);
    await expectUntouched(u);
  });

  it.each([PUBLIC_URL, TRUSTED_ORIGIN])('accepts the trusted Origin %s (positive control)', async (origin) => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/update-user', { name: 'Renamed' }, { jar: u.jar, origin });
    expect(res.statusCode).toBe(200);
    expect(await nameOf(u.userId)).toBe('Renamed');
  });

  it('refuses Sec-Fetch-Site: cross-site without Origin, with or without cookies', async () => {
    const u = await signUp(t.app);
    const headers = { 'sec-fetch-site': 'cross-site' };
    expectError(
      await post(t.app, '/revoke-sessions', undefined, { jar: u.jar, origin: null, headers }),
      403,
      INVALID_ORIGIN,
    );
    const before = await sessionsOfUser(t, u.userId);
    const login = await post(
      t.app,
      '/sign-in/email',
      { email: u.email, password: PASSWORD },
      { origin: null, headers },
    );
    expectError(login, 403, INVALID_ORIGIN);
    expect(await sessionsOfUser(t, u.userId)).toBe(before);
    await expectUntouched(u);
  });

  it('lets a Bearer request without cookies and without Origin through (server to server)', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/update-user', { name: 'Server Side' }, { bearer: u.token, origin: null });
    expect(res.statusCode).toBe(200);
    expect(await nameOf(u.userId)).toBe('Server Side');
  });
});

describe('login CSRF', () => {
  it('refuses sign-in from an untrusted Origin without cookies: no session row', async () => {
    const u = await signUp(t.app);
    const before = await sessionsOfUser(t, u.userId);
    const res = await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD }, { origin: EVIL });
    expectError(res, 403, INVALID_ORIGIN);
    expect(res.headers['set-cookie']).toBeUndefined();
    const nul = await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD }, { origin: 'null' });
    expectError(nul, 403, NULL_ORIGIN);
    expect(await sessionsOfUser(t, u.userId)).toBe(before);
  });

  it('refuses sign-up from an untrusted Origin without cookies: no user', async () => {
    const email = uniqueEmail('csrf');
    const res = await post(t.app, '/sign-up/email', { name: 'Victim', email, password: PASSWORD }, { origin: EVIL });
    expectError(res, 403, INVALID_ORIGIN);
    expect(await usersWithEmail(t, email)).toBe(0);
  });
});

describe('simple (preflight-free) content types', () => {
  const raw = (url: string, contentType: string, payload: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth${url}`,
      headers: { origin: PUBLIC_URL, 'content-type': contentType, ...(cookie ? { cookie } : {}) },
      payload,
    });
  const UNSUPPORTED = { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' };

  it.each([
    ['text/plain', (e: string) => JSON.stringify({ name: 'N', email: e, password: PASSWORD })],
    ['text/plain;charset=UTF-8', (e: string) => JSON.stringify({ name: 'N', email: e, password: PASSWORD })],
    ['application/x-www-form-urlencoded', (e: string) => `name=N&email=${encodeURIComponent(e)}&password=x${PASSWORD}`],
    [
      'multipart/form-data; boundary=x',
      (e: string) => `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n${e}\r\n--x--`,
    ],
  ])('sign-up with %s is 415 and creates no user', async (type, body) => {
    const email = uniqueEmail('simple');
    expectError(await raw('/sign-up/email', type, body(email)), 415, UNSUPPORTED);
    expect(await usersWithEmail(t, email)).toBe(0);
  });

  it('update-user with a text/plain body is 415 and changes nothing', async () => {
    const u = await signUp(t.app);
    const res = await raw('/update-user', 'text/plain', JSON.stringify({ name: 'Mallory' }), u.jar.header());
    expectError(res, 415, UNSUPPORTED);
    await expectUntouched(u);
  });
});

describe('with advanced.disableOriginCheck', () => {
  it('the same untrusted-Origin requests pass, proving the check is what refuses them', async () => {
    const email = uniqueEmail('open');
    const res = await post(
      open.app,
      '/sign-up/email',
      { name: 'Test User', email, password: PASSWORD },
      { origin: EVIL },
    );
    expect(res.statusCode).toBe(200);
    expect(await usersWithEmail(open, email)).toBe(1);
    const u = await signUp(open.app);
    const update = await post(open.app, '/update-user', { name: 'Changed' }, { jar: u.jar, origin: EVIL });
    expect(update.statusCode).toBe(200);
    const bare = await post(open.app, '/revoke-sessions', undefined, { jar: u.jar, origin: null });
    expect(bare.statusCode).toBe(200);
    expect(await count(open, 'sessions WHERE token = $1', u.token)).toBe(0);
  });
});

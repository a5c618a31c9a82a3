import type { LightMyRequestResponse } from 'fastify';
import { TrustedOrigins } from '../../../src/http/origins';
import { isSafeRedirect } from '../../../src/http/redirects';
import { PUBLIC_URL, startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { PASSWORD, post, signUp, uniqueEmail } from '../../setup/fixtures';

/** Open redirects: callbackURL must be a harmless relative path or on a trusted origin (spec §5). */
const ACCEPTED = [
  '/dashboard',
  '/a/b?x=1#y',
  '/',
  `${PUBLIC_URL}/x`,
  `${TRUSTED_ORIGIN}/welcome`,
  '/.well/known?next=//x',
  '/a/..b/c.d/.e',
  '/cb?next=%2Fhome&up=../x',
];

const REFUSED = [
  '//evil.com',
  '/\\evil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/%2F%2Fevil.com',
  '/%2f/evil.com',
  '/%5Cevil.com',
  '/%252F%252Fevil.com',
  '/%25252F%25252Fevil.com',
  '/%09/evil.com',
  '/%E0%A4%A',
  '///evil.com',
  'https://evil.com',
  'http://localhost:3000@evil.com',
  'https://user:pass@app.example.test/',
  'https://app.example.test@evil.com/',
  'javascript:alert(1)',
  'JavaScript:alert(1)//https://app.example.test',
  'data:text/html,x',
  'https://app.example.test.evil.com',
  'http:localhost:3000',
  'evil.com',
  '\\\\evil.com',
  ' //evil.com',
  '',
  `/${'a'.repeat(2999)}`,
  // Dot segments, written or encoded, and encoded separators in the path (a plain path only).
  '/a/../b',
  '/./x',
  '/a/.',
  '/..',
  '/a/%2e%2e/b',
  '/app/%2E%2E/%2e%2e/evil?token=',
  '/a/.%2e/b',
  '/a/%2e/b',
  '/a/%252e%252e/b',
  '/a/%25252e%25252e/b',
  '/a%2fb',
  '/a%2Fb',
  '/a/%5cb',
  '/a/%255Cb',
  // Control characters anywhere, written or encoded (C1 included).
  '/a?x=%00',
  '/a\u0085b',
  '/a%C2%85b',
  '/a?x=%7f',
];

describe('isSafeRedirect (unit)', () => {
  const trusted = new TrustedOrigins([PUBLIC_URL, TRUSTED_ORIGIN]);

  it.each(ACCEPTED)('accepts %j', (target) => {
    expect(isSafeRedirect(target, trusted)).toBe(true);
  });

  it.each(REFUSED)('refuses %j', (target) => {
    expect(isSafeRedirect(target, trusted)).toBe(false);
  });

  it('honours a wildcard trusted origin for subdomains only, by parsed host', () => {
    const wild = new TrustedOrigins([PUBLIC_URL, 'https://*.example.org']);
    expect(isSafeRedirect('https://a.example.org/x', wild)).toBe(true);
    expect(isSafeRedirect('https://a.b.example.org/x', wild)).toBe(true);
    expect(isSafeRedirect('https://example.org/x', wild)).toBe(false);
    expect(isSafeRedirect('https://a.example.org.evil.com', wild)).toBe(false);
    expect(isSafeRedirect('https://a.example.org.evil.com/x', wild)).toBe(false);
    expect(isSafeRedirect('https://evilexample.org/x', wild)).toBe(false);
    expect(isSafeRedirect('http://a.example.org/x', wild)).toBe(false); // scheme is part of the origin
    expect(isSafeRedirect('https://x@a.example.org/', wild)).toBe(false);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { TRUSTED_ORIGINS: `${TRUSTED_ORIGIN},https://*.example.org` });
});
afterAll(() => t?.close());

const count = async (sql: string, param: string) =>
  (await t.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [param]))[0].n;

function expectInvalidCallback(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' });
  expect(res.headers['set-cookie']).toBeUndefined();
}

/** API-level refusals: schema rejects the over-long path before the redirect check (maxLength 2048). */
const API_REFUSED = REFUSED.filter((u) => u.length <= 2048);

describe('POST /sign-in/email callbackURL', () => {
  let user: { email: string; userId: string };
  beforeAll(async () => {
    user = await signUp(t.app);
  });
  const signIn = (callbackURL: unknown) =>
    post(t.app, '/sign-in/email', { email: user.email, password: PASSWORD, callbackURL });

  it.each([...ACCEPTED, 'https://a.example.org/x'])('accepts %j and echoes it as the redirect', async (url) => {
    const res = await signIn(url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ redirect: true, url, user: { id: user.userId } });
  });

  it.each([...API_REFUSED, 'https://example.org/x', 'https://a.example.org.evil.com'])(
    'refuses %j with 403 and creates no session',
    async (url) => {
      const before = await count('sessions WHERE user_id = $1', user.userId);
      expectInvalidCallback(await signIn(url));
      expect(await count('sessions WHERE user_id = $1', user.userId)).toBe(before);
    },
  );

  it('refuses an unsafe callbackURL in the query string too', async () => {
    const before = await count('sessions WHERE user_id = $1', user.userId);
    const res = await post(t.app, `/sign-in/email?callbackURL=${encodeURIComponent('//evil.com')}`, {
      email: user.email,
      password: PASSWORD,
    });
    expectInvalidCallback(res);
    expect(await count('sessions WHERE user_id = $1', user.userId)).toBe(before);
  });

  it.each([
    ['a 3000-character path', `/${'a'.repeat(2999)}`],
    ['an array', ['/dashboard']],
    ['a number', 42],
    ['an object', { href: '/dashboard' }],
    ['null', null],
  ])('refuses %s with 400 VALIDATION_ERROR naming callbackURL, no session', async (_label, value) => {
    const before = await count('sessions WHERE user_id = $1', user.userId);
    const res = await signIn(value);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid request' });
    expect(res.json().details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'body.callbackURL' })]),
    );
    expect(await count('sessions WHERE user_id = $1', user.userId)).toBe(before);
  });
});

describe('POST /sign-up/email callbackURL', () => {
  const signUpWith = (email: string, callbackURL: unknown) =>
    post(t.app, '/sign-up/email', { name: 'Redirect Test', email, password: PASSWORD, callbackURL });

  it.each(['/dashboard', `${TRUSTED_ORIGIN}/welcome`, 'https://a.example.org/x'])('accepts %j', async (url) => {
    const email = uniqueEmail('cb-ok');
    expect((await signUpWith(email, url)).statusCode).toBe(200);
    expect(await count('users WHERE email = $1', email)).toBe(1);
  });

  it.each([...API_REFUSED, 'https://example.org/x', 'https://a.example.org.evil.com'])(
    'refuses %j with 403 and creates no user',
    async (url) => {
      const email = uniqueEmail('cb-bad');
      expectInvalidCallback(await signUpWith(email, url));
      expect(await count('users WHERE email = $1', email)).toBe(0);
    },
  );

  it.each([
    ['a 3000-character path', `/${'a'.repeat(2999)}`],
    ['an array', ['/dashboard']],
    ['a number', 42],
  ])('refuses %s with 400 VALIDATION_ERROR and creates no user', async (_label, value) => {
    const email = uniqueEmail('cb-type');
    const res = await signUpWith(email, value);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid request' });
    expect(res.json().details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'body.callbackURL' })]),
    );
    expect(await count('users WHERE email = $1', email)).toBe(0);
  });
});

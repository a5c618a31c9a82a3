import { listenOnLoopback, startTestApp, type TestApp } from '../setup/app';
import { browserClient } from '../setup/browser-client';
import { DATA_COOKIE, PASSWORD, TOKEN_COOKIE, uniqueEmail } from '../setup/fixtures';

/**
 * The service driven as a product frontend would drive it: the published better-auth client
 * over real HTTP. In Node the client needs a cookie jar of our own and a trusted Origin header.
 */
let t: TestApp;
let baseURL: string;
let a: ReturnType<typeof browser>; // the main browser, created once the server listens (baseURL)

beforeAll(async () => {
  t = await startTestApp();
  baseURL = await listenOnLoopback(t.app);
  a = browser();
});
// app.close() also closes the listening server.
afterAll(() => t?.close());

/** A browser of our own: a cookie jar, the page's Origin and a request log (test/setup/browser-client.ts). */
const browser = () => browserClient(baseURL);

describe('better-auth client (published library) over HTTP', () => {
  const email = uniqueEmail('Client.User');
  const lower = email.toLowerCase();
  let signUpToken: string;
  let signInToken: string;
  let userId: string;

  it('signUp.email creates the user, answers it lowercased and sets the session cookies', async () => {
    const { data, error } = await a.client.signUp.email({ name: 'Client User', email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data?.user.email).toBe(lower);
    expect(data?.user.name).toBe('Client User');
    expect(data?.user.emailVerified).toBe(false);
    expect(typeof data?.token).toBe('string');
    signUpToken = data!.token!;
    userId = data!.user.id;
    expect(a.sent.at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/sign-up/email',
      body: JSON.stringify({ name: 'Client User', email, password: PASSWORD }),
    });
    const cookie = a.jar.get(TOKEN_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie!.startsWith(`${signUpToken}.`)).toBe(true); // signed token
    expect(a.jar.get(DATA_COOKIE)).toBeDefined();
    expect(a.jar.attributes.get(TOKEN_COOKIE)?.secure).toBeUndefined(); // http PUBLIC_URL: no Secure
  });

  it('signIn.email answers a token and the user', async () => {
    const { data, error } = await a.client.signIn.email({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data?.redirect).toBe(false);
    expect(data?.user).toMatchObject({ id: userId, email: lower, name: 'Client User' });
    expect(data?.token).toMatch(/^[A-Za-z0-9]{16,128}$/);
    expect(data?.token).not.toBe(signUpToken);
    signInToken = data!.token;
    expect(a.sent.at(-1)?.path).toBe('/api/auth/sign-in/email');
    expect(a.jar.get(TOKEN_COOKIE)!.startsWith(`${signInToken}.`)).toBe(true);
  });

  it('getSession answers the session and user from the cookie', async () => {
    const { data, error } = await a.client.getSession();
    expect(error).toBeNull();
    expect(a.sent.at(-1)).toMatchObject({ method: 'GET', path: '/api/auth/get-session' });
    expect(data?.user).toMatchObject({ id: userId, email: lower, name: 'Client User' });
    expect(data?.session).toMatchObject({ token: signInToken, userId });
    expect(data?.session.expiresAt).toBeInstanceOf(Date); // the client's parser revives ISO dates
    expect(data!.session.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('getSession with an Authorization: Bearer header and an empty jar', async () => {
    const b = browser();
    const { data, error } = await b.client.getSession({
      fetchOptions: { headers: { authorization: `Bearer ${signUpToken}` } },
    });
    expect(error).toBeNull();
    expect(b.jar.cookies.size).toBe(0); // no cookie sent, and a Bearer answer sets none
    expect(data?.session.token).toBe(signUpToken);
    expect(data?.user).toMatchObject({ id: userId, email: lower });
    const none = await b.client.getSession();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
  });

  it('listSessions contains both sessions (sign-up and sign-in)', async () => {
    const { data, error } = await a.client.listSessions();
    expect(error).toBeNull();
    expect(a.sent.at(-1)).toMatchObject({ method: 'GET', path: '/api/auth/list-sessions' });
    const tokens = data!.map((s) => s.token);
    expect(tokens).toHaveLength(2);
    expect(tokens).toEqual(expect.arrayContaining([signUpToken, signInToken]));
    for (const s of data!) expect(s.userId).toBe(userId);
  });

  it('revokeSession revokes the other session: its Bearer getSession is null, ours survives', async () => {
    const { data, error } = await a.client.revokeSession({ token: signUpToken });
    expect(error).toBeNull();
    expect(data).toEqual({ status: true });
    expect(a.sent.at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/revoke-session',
      body: JSON.stringify({ token: signUpToken }),
    });
    const b = browser();
    const gone = await b.client.getSession({ fetchOptions: { headers: { authorization: `Bearer ${signUpToken}` } } });
    expect(gone.error).toBeNull();
    expect(gone.data).toBeNull();
    const mine = await a.client.getSession({ query: { disableCookieCache: true } });
    expect(mine.data?.session.token).toBe(signInToken);
  });

  it('revokeOtherSessions ends every session but the current one', async () => {
    const other = browser();
    const signedIn = await other.client.signIn.email({ email, password: PASSWORD });
    const otherToken = signedIn.data!.token;
    expect((await other.client.getSession()).data?.session.token).toBe(otherToken);
    const { data, error } = await a.client.revokeOtherSessions();
    expect(error).toBeNull();
    expect(data).toEqual({ status: true });
    expect(a.sent.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/revoke-other-sessions' });
    expect((await other.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    const listed = await a.client.listSessions();
    expect(listed.data!.map((s) => s.token)).toEqual([signInToken]);
  });

  it('updateUser changes the name; getSession shows it', async () => {
    const { data, error } = await a.client.updateUser({ name: 'Renamed User' });
    expect(error).toBeNull();
    expect(data).toEqual({ status: true });
    expect(a.sent.at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/update-user',
      body: JSON.stringify({ name: 'Renamed User' }),
    });
    // The answer refreshed the session-cache cookie, so even the cached answer is current.
    expect((await a.client.getSession()).data?.user.name).toBe('Renamed User');
    const fresh = await a.client.getSession({ query: { disableCookieCache: true } });
    expect(a.sent.at(-1)?.path).toBe('/api/auth/get-session');
    expect(fresh.data?.user).toMatchObject({ id: userId, name: 'Renamed User', email: lower });
  });

  it('a wrong password answers the error shape: status 401, code and catalogue message', async () => {
    const b = browser();
    const { data, error } = await b.client.signIn.email({ email, password: 'not the right password' });
    expect(data).toBeNull();
    expect(error?.status).toBe(401);
    expect(error?.code).toBe('INVALID_EMAIL_OR_PASSWORD');
    expect(error?.message).toBe('Invalid email or password');
    expect(b.jar.cookies.size).toBe(0);
  });

  it('signOut ends the session: getSession is null and the cookies are gone', async () => {
    const { data, error } = await a.client.signOut();
    expect(error).toBeNull();
    expect(data).toEqual({ success: true });
    expect(a.sent.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/sign-out' });
    expect(a.jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(a.jar.get(DATA_COOKIE)).toBeUndefined();
    expect((await a.client.getSession()).data).toBeNull();
    const bearer = await browser().client.getSession({
      fetchOptions: { headers: { authorization: `Bearer ${signInToken}` } },
    });
    expect(bearer.data).toBeNull();
  });

  it('revokeSessions on a fresh sign-in ends it (and every other session of the user)', async () => {
    const c = browser();
    const d = browser();
    const first = await c.client.signIn.email({ email, password: PASSWORD });
    const second = await d.client.signIn.email({ email, password: PASSWORD });
    expect((await c.client.getSession()).data?.session.token).toBe(first.data!.token);
    const { data, error } = await c.client.revokeSessions();
    expect(error).toBeNull();
    expect(data).toEqual({ status: true });
    expect(c.sent.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/revoke-sessions' });
    expect((await c.client.getSession()).data).toBeNull();
    expect((await d.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    const bearer = await browser().client.getSession({
      fetchOptions: { headers: { authorization: `Bearer ${second.data!.token}` } },
    });
    expect(bearer.data).toBeNull();
  });
});

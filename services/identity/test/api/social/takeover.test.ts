import { CookieJar, get, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { CLIENT_ID, providerUser, type SocialTest, socialSignIn, startSocialTest } from './helpers';

const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnop';

let s: SocialTest;
beforeAll(async () => {
  s = await startSocialTest({ serviceApiKey: SERVICE_KEY });
});
afterAll(() => s?.close());

const verifyEmail = (userId: string) =>
  // fixture: the user followed their verification link (tested in test/api/mail)
  s.t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [userId]);

describe('account takeover attempts fail', () => {
  it('a pre-registered unverified account with the victim email is not linked to their verified provider login', async () => {
    const attacker = await signUp(s.t.app, { email: 'victim@provider.example' }); // never verified
    providerUser(s.op, 'victim', { email: 'victim@provider.example' });
    const { location, jar } = await socialSignIn(s, 'victim');
    expect(new URL(location, 'http://x').searchParams.get('error')).toBe('account_not_linked');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    const idToken = await s.op.mintIdToken({
      sub: 'victim',
      aud: CLIENT_ID,
      email: 'victim@provider.example',
      email_verified: true,
    });
    const res = await post(s.t.app, '/sign-in/social', { provider: 'loop', idToken: { token: idToken } });
    expect(res.json().code).toBe('LINKING_NOT_ALLOWED');
    const accounts = await get(s.t.app, '/list-accounts', { jar: attacker.jar });
    expect(accounts.json().map((a: { provider: string }) => a.provider)).toEqual(['credential']);
  });

  it('a verified local account is linked to a verified provider login with the same email (same user)', async () => {
    const owner = await signUp(s.t.app, { email: 'owner@provider.example' });
    await verifyEmail(owner.userId);
    providerUser(s.op, 'owner');
    const { location, jar } = await socialSignIn(s, 'owner', { newUserCallbackURL: '/welcome' });
    expect(location).toBe('/dashboard'); // not a new user
    expect((await sessionOf(s.t.app, { jar })).user.id).toBe(owner.userId);
  });

  it('an unverified provider email never links to an existing account, even a verified one', async () => {
    const owner = await signUp(s.t.app, { email: 'uv@provider.example' });
    await verifyEmail(owner.userId);
    providerUser(s.op, 'uv', { email: 'uv@provider.example', email_verified: false });
    const { location } = await socialSignIn(s, 'uv');
    expect(new URL(location, 'http://x').searchParams.get('error')).toBe('account_not_linked');
  });

  it('provider tokens of one user are never returned to another; userId needs the service credential', async () => {
    providerUser(s.op, 'ta');
    providerUser(s.op, 'tb');
    const a = await socialSignIn(s, 'ta');
    const b = await socialSignIn(s, 'tb');
    const aUser = (await sessionOf(s.t.app, { jar: a.jar })).user;
    const aToken = (await post(s.t.app, '/get-access-token', { providerId: 'loop' }, { jar: a.jar })).json()
      .accessToken;
    const bToken = (await post(s.t.app, '/get-access-token', { providerId: 'loop' }, { jar: b.jar })).json()
      .accessToken;
    expect(aToken).toBeTruthy();
    expect(bToken).not.toBe(aToken);

    const byAccount = await post(s.t.app, '/get-access-token', { providerId: 'loop', accountId: 'ta' }, { jar: b.jar });
    expect(byAccount.json().code).toBe('ACCOUNT_NOT_FOUND');
    const info = await post(s.t.app, '/account-info', { accountId: 'ta' }, { jar: b.jar });
    expect(info.json().code).toBe('ACCOUNT_NOT_FOUND');
    for (const route of ['/get-access-token', '/refresh-token', '/account-info']) {
      const body =
        route === '/account-info'
          ? { accountId: 'ta', userId: aUser.id }
          : { providerId: 'loop', accountId: 'ta', userId: aUser.id };
      const asB = await post(s.t.app, route, body, { jar: b.jar });
      expect([route, asB.statusCode, asB.json().code]).toEqual([route, 403, 'SERVER_ONLY']);
      // A leaked key used from a page (Origin) is refused too.
      const fromPage = await post(s.t.app, route, body, { headers: { 'x-api-key': SERVICE_KEY } });
      expect(fromPage.json().code).toBe('SERVER_ONLY');
    }
    const server = await post(
      s.t.app,
      '/get-access-token',
      { providerId: 'loop', userId: aUser.id },
      { origin: null, headers: { 'x-api-key': SERVICE_KEY } },
    );
    expect(server.statusCode).toBe(200);
    expect(server.json().accessToken).toBe(aToken);
    const notAnId = await post(
      s.t.app,
      '/get-access-token',
      { providerId: 'loop', userId: 'x' },
      { origin: null, headers: { 'x-api-key': SERVICE_KEY } },
    );
    expect(notAnId.json().code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('provider-token routes answer 401 to a caller with neither a session nor the service credential, whatever the body', async () => {
    providerUser(s.op, 'tc');
    const owner = await socialSignIn(s, 'tc');
    const ownerId = (await sessionOf(s.t.app, { jar: owner.jar })).user.id;
    const expired = new CookieJar();
    expired.cookies.set(TOKEN_COOKIE, 'not-a-signed-session-token');
    for (const route of ['/get-access-token', '/refresh-token', '/account-info']) {
      const base = route === '/account-info' ? { accountId: 'tc' } : { providerId: 'loop' };
      for (const body of [base, { ...base, userId: ownerId }, { ...base, userId: 'not-an-id' }])
        for (const options of [{}, { origin: null }, { jar: expired }]) {
          const res = await post(s.t.app, route, body, options);
          expect([route, body, res.statusCode, res.json().code]).toEqual([route, body, 401, 'UNAUTHORIZED']);
        }
    }
  });

  it('unlink-account needs a fresh session, and parallel unlinks never remove the last account', async () => {
    const user = await signUp(s.t.app, { email: 'par-unlink@provider.example' });
    s.op.defaultLogin = 'par-unlink';
    providerUser(s.op, 'par-unlink');
    await socialSignIn(s, 'par-unlink', {}, user.jar, '/link-social');
    expect((await get(s.t.app, '/list-accounts', { jar: user.jar })).json()).toHaveLength(2);
    const results = await Promise.all(
      ['credential', 'loop'].map((providerId) => post(s.t.app, '/unlink-account', { providerId }, { jar: user.jar })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect((await get(s.t.app, '/list-accounts', { jar: user.jar })).json()).toHaveLength(1);

    s.t.clock.advance(s.t.config.session.freshAgeSec + 1);
    try {
      const stale = await post(s.t.app, '/unlink-account', { providerId: 'loop' }, { jar: user.jar });
      expect(stale.json().code).toBe('SESSION_NOT_FRESH');
    } finally {
      s.t.clock.advance(-(s.t.config.session.freshAgeSec + 1));
    }
  });

  it.each([
    ['callbackURL', 'INVALID_CALLBACK_URL'],
    ['newUserCallbackURL', 'INVALID_NEW_USER_CALLBACK_URL'],
    ['errorCallbackURL', 'INVALID_ERROR_CALLBACK_URL'],
  ])('an untrusted %s is refused with 403 and no state is made', async (field, code) => {
    for (const target of ['https://evil.example/x', '//evil.example', '/\\evil.example']) {
      const jar = new CookieJar();
      const res = await post(s.t.app, '/sign-in/social', { provider: 'loop', [field]: target }, { jar });
      expect([target, res.statusCode, res.json().code]).toEqual([target, 403, code]);
      expect(jar.get('better-auth.oauth_state')).toBeUndefined();
    }
  });

  it('a generic OAuth 2 provider (explicit endpoints) signs in through the same flow', async () => {
    providerUser(s.op, 'plain-user');
    const { location, jar } = await socialSignIn(s, 'plain-user', { provider: 'plain' });
    expect(location).toBe('/dashboard');
    expect((await sessionOf(s.t.app, { jar })).user.email).toBe('plain-user@provider.example');
  });
});

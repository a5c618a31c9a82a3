import { PUBLIC_URL } from '../../setup/app';
import { CookieJar, get, post, sessionOf, signUp } from '../../setup/fixtures';
import { providerUser, type SocialTest, socialSignIn, startFlow, startSocialTest } from './helpers';

let s: SocialTest;
beforeAll(async () => {
  s = await startSocialTest();
});
afterAll(() => s?.close());

describe('authorization code + PKCE round trip against a real OpenID provider', () => {
  it('sign-in/social answers the authorization URL with state, PKCE and nonce, and binds the state to the browser', async () => {
    const jar = new CookieJar();
    const url = new URL(await startFlow(s, jar, {}));
    expect(url.origin).toBe(s.op.issuer);
    expect(url.searchParams.get('client_id')).toBe('identity-service');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/loop`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'email', 'offline_access']),
    );
    expect(jar.attributes.get('better-auth.oauth_state')).toMatchObject({
      httponly: true,
      samesite: 'Lax',
      path: '/api/auth/callback',
    });
    // The stored state holds a 128-character verifier and the callback URLs, 10 minutes long.
    const key = `${s.t.config.redisPrefix}oauth-state:loop:${url.searchParams.get('state')}`;
    const stored = JSON.parse((await s.t.ctx.redis!.get(key))!);
    expect(stored.codeVerifier).toHaveLength(128);
    expect(stored).toMatchObject({ callbackURL: '/dashboard', providerId: 'loop', link: null });
    expect(await s.t.ctx.redis!.ttl(key)).toBeGreaterThan(590);
  });

  it('a new user is registered, signed in and sent to newUserCallbackURL; tokens are encrypted at rest', async () => {
    const u = providerUser(s.op, 'alice');
    const { res, jar } = await socialSignIn(s, 'alice', { newUserCallbackURL: '/welcome' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/welcome');
    const session = await sessionOf(s.t.app, { jar });
    expect(session.user).toMatchObject({
      email: u.email,
      emailVerified: true,
      name: 'User alice',
      image: 'https://img.example/alice.png',
    });
    expect(jar.get('better-auth.oauth_state')).toBeUndefined(); // used up
    const rows = await s.t.ctx.sql.query<{
      access_token: string;
      refresh_token: string;
      id_token: string;
      scope: string;
    }>(
      "SELECT access_token, refresh_token, id_token, scope FROM accounts WHERE provider_id = 'loop' AND account_id = 'alice'",
    );
    expect(rows).toHaveLength(1);
    for (const value of [rows[0].access_token, rows[0].refresh_token, rows[0].id_token]) expect(value).toMatch(/^v1\./);
    expect(rows[0].scope.split(',')).toEqual(expect.arrayContaining(['openid', 'offline_access']));
  });

  it('an existing user signs in again and goes to callbackURL, same user', async () => {
    providerUser(s.op, 'bob');
    const first = await socialSignIn(s, 'bob', { newUserCallbackURL: '/welcome' });
    const firstUser = (await sessionOf(s.t.app, { jar: first.jar })).user;
    const again = await socialSignIn(s, 'bob', { newUserCallbackURL: '/welcome' });
    expect(again.location).toBe('/dashboard');
    expect((await sessionOf(s.t.app, { jar: again.jar })).user.id).toBe(firstUser.id);
  });

  it('list-accounts, get-access-token (a token the provider accepts), refresh near expiry, refresh-token, account-info', async () => {
    providerUser(s.op, 'carol');
    const { jar } = await socialSignIn(s, 'carol');
    const list = await get(s.t.app, '/list-accounts', { jar });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({ provider: 'loop', accountId: 'carol', scopes: expect.arrayContaining(['openid']) }),
    ]);

    const first = await post(s.t.app, '/get-access-token', { providerId: 'loop' }, { jar });
    expect(first.statusCode).toBe(200);
    const { accessToken, idToken, accessTokenExpiresAt } = first.json();
    expect(idToken).toMatch(/^ey/);
    const userinfo = await fetch(`${s.op.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect((await userinfo.json()).sub).toBe('carol');

    // Not near expiry: the same token.
    expect((await post(s.t.app, '/get-access-token', { providerId: 'loop' }, { jar })).json().accessToken).toBe(
      accessToken,
    );
    // Within 5 s of expiry (spec §9): refreshed with the refresh token.
    s.t.clock.advance((Date.parse(accessTokenExpiresAt) - s.t.clock.now()) / 1000 - 4);
    const renewed = await post(s.t.app, '/get-access-token', { providerId: 'loop' }, { jar });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().accessToken).not.toBe(accessToken);
    expect(Date.parse(renewed.json().accessTokenExpiresAt)).toBeGreaterThan(Date.parse(accessTokenExpiresAt));

    const refreshed = await post(s.t.app, '/refresh-token', { providerId: 'loop' }, { jar });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json()).toMatchObject({
      providerId: 'loop',
      accountId: 'carol',
      refreshToken: expect.any(String),
    });
    expect(refreshed.json().accessToken).not.toBe(renewed.json().accessToken);

    const info = await post(s.t.app, '/account-info', { accountId: 'carol' }, { jar });
    expect(info.statusCode).toBe(200);
    expect(info.json().user).toMatchObject({ id: 'carol', email: 'carol@provider.example', emailVerified: true });
    expect(info.json().data).toMatchObject({ sub: 'carol', name: 'User carol' });
  });

  it('form_post (Apple): a cross-site POST callback is sent on to the GET callback, which signs in', async () => {
    providerUser(s.op, 'poster');
    const jar = new CookieJar();
    const back = await s.op.authorize(await startFlow(s, jar, { loginHint: 'poster' }));
    const posted = await s.t.app.inject({
      method: 'POST',
      url: '/api/auth/callback/loop',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://appleid.apple.com',
        'sec-fetch-site': 'cross-site',
      },
      payload: back.searchParams.toString(),
    });
    expect(posted.statusCode).toBe(302);
    const next = new URL(posted.headers.location as string);
    expect(`${next.origin}${next.pathname}`).toBe(`${PUBLIC_URL}/api/auth/callback/loop`);
    expect(next.searchParams.get('code')).toBe(back.searchParams.get('code'));
    const res = await get(s.t.app, `/callback/loop${next.search}`, { jar });
    expect(res.headers.location).toBe('/dashboard');
    expect((await sessionOf(s.t.app, { jar })).user.email).toBe('poster@provider.example');
    // Form bodies stay refused everywhere else.
    const form = await s.t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: 'email=a%40b.co&password=x',
    });
    expect(form.statusCode).toBe(415);
  });

  it('link-social links a provider account to a signed-in email user; unlink works, but never the last account', async () => {
    const local = await signUp(s.t.app, { email: 'dave@provider.example' });
    providerUser(s.op, 'dave');
    s.op.defaultLogin = 'dave';
    const url = await startFlow(s, local.jar, { callbackURL: '/settings' }, '/link-social');
    const back = await s.op.authorize(url);
    const res = await get(s.t.app, `${back.pathname.replace('/api/auth', '')}${back.search}`, { jar: local.jar });
    expect(res.headers.location).toBe('/settings');
    const providers = (await get(s.t.app, '/list-accounts', { jar: local.jar }))
      .json()
      .map((a: { provider: string }) => a.provider);
    expect(providers.sort()).toEqual(['credential', 'loop']);

    const unlink = await post(s.t.app, '/unlink-account', { providerId: 'loop' }, { jar: local.jar });
    expect(unlink.json()).toEqual({ status: true });
    const last = await post(s.t.app, '/unlink-account', { providerId: 'credential' }, { jar: local.jar });
    expect(last.statusCode).toBe(400);
    expect(last.json()).toMatchObject({
      code: 'FAILED_TO_UNLINK_LAST_ACCOUNT',
      message: "You can't unlink your last account",
    });
    const unknown = await post(s.t.app, '/unlink-account', { providerId: 'loop' }, { jar: local.jar });
    expect(unknown.json().code).toBe('ACCOUNT_NOT_FOUND');
  });
});

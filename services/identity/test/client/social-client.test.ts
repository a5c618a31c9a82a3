import type { AddressInfo } from 'node:net';
import { CLIENT_ID, providerUser, type SocialTest, startSocialTest } from '../api/social/helpers';
import { browserClient } from '../setup/browser-client';
import { TOKEN_COOKIE } from '../setup/fixtures';

/** Social sign-in driven by the published better-auth client over real HTTP, against the loopback provider. */
let s: SocialTest;
let baseURL: string;

beforeAll(async () => {
  s = await startSocialTest();
  await s.t.app.listen({ port: 0, host: '127.0.0.1' });
  baseURL = `http://127.0.0.1:${(s.t.app.server.address() as AddressInfo).port}/api/auth`;
});
afterAll(() => s?.close());

describe('better-auth client: signIn.social, callback, linkSocial, listAccounts, id token', () => {
  it('signIn.social answers the provider URL; after the callback the client has a session', async () => {
    const { client, jar, sent } = browserClient(baseURL);
    providerUser(s.op, 'client-user');
    const { data, error } = await client.signIn.social({
      provider: 'loop',
      callbackURL: '/dashboard',
      newUserCallbackURL: '/welcome',
      disableRedirect: true,
      loginHint: 'client-user',
    });
    expect(error).toBeNull();
    expect(data?.url).toContain(`${s.op.issuer}/auth?`);
    expect(sent.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/sign-in/social' });

    // The browser logs in at the provider and follows its redirect back to the (listening) callback.
    const back = await s.op.authorize(data!.url!);
    const res = await fetch(`${baseURL}${back.pathname.replace('/api/auth', '')}${back.search}`, {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    });
    jar.store(res);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/welcome');
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();

    const session = await client.getSession();
    expect(session.data?.user.email).toBe('client-user@provider.example');
    const accounts = await client.listAccounts();
    expect(accounts.data?.map((a) => a.providerId)).toEqual(['loop']);
  });

  it('signIn.social with an id token signs in without a redirect', async () => {
    const { client, jar } = browserClient(baseURL);
    const token = await s.op.mintIdToken({
      sub: 'client-mobile',
      aud: CLIENT_ID,
      email: 'mobile@provider.example',
      email_verified: true,
    });
    const { data, error } = await client.signIn.social({ provider: 'loop', idToken: { token } });
    expect(error).toBeNull();
    expect(data).toMatchObject({ redirect: false, user: { email: 'mobile@provider.example' } });
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    const bad = await client.signIn.social({ provider: 'loop', idToken: { token: `${token}x` } });
    expect(bad.error).toMatchObject({ status: 401, code: 'INVALID_TOKEN' }); // better-auth: UNAUTHORIZED
  });
});

import * as oidc from 'openid-client';
import { CookieJar, PASSWORD, post, signUp } from '../../setup/fixtures';
import { adminPost, signUpAdmin } from '../admin/helpers';
import { createClient } from '../oauth-client/helpers';
import { authorizationRequest, browse, call, discover, ISSUER, type OpTest, startOpTest } from './helpers';

/**
 * The clients operators register (docs/oauth-clients.md) are the provider's clients beside the configuration's
 * (docs/oidc-provider.md, "Static clients"): a registered application signs users in and a registered service gets
 * tokens with its own secret, a rotated secret keeps working through its grace period, and a deleted or changed
 * client takes effect at once.
 */
let s: OpTest;
let admin: CookieJar;
beforeAll(async () => {
  s = await startOpTest({ OAUTH_CLIENT_API_SCOPES: 'orders:read,orders:write' });
  admin = (await signUpAdmin(s.t)).jar;
});
afterAll(() => s?.close());

const clientCredentials = (clientId: string, secret: string) =>
  call(s.app, `${ISSUER}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=openid',
  });

describe('a registered web application', () => {
  it('signs a user in with code and PKCE, its id token for the user, with the secret the registry showed once', async () => {
    const redirect = 'https://orders.example.com/callback';
    const { clientId, secret } = await createClient(s.t, admin, {
      name: 'Orders portal',
      type: 'confidential',
      redirectUris: [redirect],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      firstParty: true,
    });
    const u = await signUp(s.app);
    const jar = new CookieJar();
    expect((await post(s.app, '/sign-in/email', { email: u.email, password: PASSWORD }, { jar })).statusCode).toBe(200);
    const config = await discover(s.app, { client_id: clientId, client_secret: secret! });
    const request = await authorizationRequest(config, redirect);
    const { url } = await browse(s.app, jar, request.url);
    expect(`${url.origin}${url.pathname}`).toBe(redirect);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    expect(tokens.claims()).toMatchObject({ sub: u.userId, aud: clientId });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, u.userId)).toMatchObject({ email: u.email });

    // a wrong secret is refused at the token endpoint
    const wrong = await discover(s.app, { client_id: clientId, client_secret: `${secret}x` });
    const refused = await oidc.refreshTokenGrant(wrong, tokens.refresh_token!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({ status: 401, cause: [{ parameters: { error: 'invalid_client' } }] });
  });

  it('an unregistered redirect URI of a registered client gets the error page, not a redirect', async () => {
    const { clientId, secret } = await createClient(s.t, admin, {
      name: 'Exact',
      type: 'confidential',
      redirectUris: ['https://exact.example.com/cb'],
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
    });
    const config = await discover(s.app, { client_id: clientId, client_secret: secret! });
    const request = await authorizationRequest(config, 'https://exact.example.com/cb/../evil', { scope: 'openid' });
    const res = await call(s.app, request.url);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});

describe('a registered service (client credentials)', () => {
  it('gets a token with its secret; after a rotation both secrets work until the grace ends; deleted, it gets none', async () => {
    const { clientId, secret } = await createClient(s.t, admin, {
      name: 'Billing job',
      type: 'confidential',
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
    });
    expect((await clientCredentials(clientId, secret!)).statusCode).toBe(200);
    expect((await clientCredentials(clientId, `${secret}x`)).json()).toMatchObject({ error: 'invalid_client' });

    const rotated = await adminPost(s.t, 'rotate-oauth-client-secret', { clientId }, admin);
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json().secret as string;
    expect((await clientCredentials(clientId, next)).statusCode).toBe(200);
    expect((await clientCredentials(clientId, secret!)).statusCode).toBe(200);

    expect((await adminPost(s.t, 'delete-oauth-client', { clientId }, admin)).statusCode).toBe(200);
    const gone = await clientCredentials(clientId, next);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('a change to its grant types applies to the next request', async () => {
    const { clientId, secret } = await createClient(s.t, admin, {
      name: 'Reports',
      type: 'confidential',
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
    });
    expect((await clientCredentials(clientId, secret!)).statusCode).toBe(200);
    const changed = await adminPost(
      s.t,
      'update-oauth-client',
      { clientId, grantTypes: ['authorization_code'], redirectUris: ['https://reports.example.com/cb'] },
      admin,
    );
    expect(changed.statusCode).toBe(200);
    const refused = await clientCredentials(clientId, secret!);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
  });
});

it("the configuration's clients still work beside the registry, and discovery lists the registry's scopes", async () => {
  const res = await call(s.app, `${ISSUER}/.well-known/openid-configuration`);
  expect(res.json().scopes_supported).toEqual(expect.arrayContaining(['openid', 'orders:read', 'orders:write']));
});

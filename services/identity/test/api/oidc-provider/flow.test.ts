import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { CookieJar, signUp } from '../../setup/fixtures';
import {
  authorizationRequest,
  browse,
  call,
  discover,
  FIRST_PARTY,
  ISSUER,
  MACHINE,
  type OpTest,
  PUBLIC_SPA,
  startOpTest,
} from './helpers';

/**
 * A relying party on openid-client 6, with its defaults, against the service's OpenID provider
 * (docs/oidc-provider.md): discovery, the authorization code flow with PKCE for a user signed in through the
 * service's own API, the id token, userinfo, refresh token rotation, introspection, revocation and client
 * credentials.
 */
let s: OpTest;
beforeAll(async () => {
  s = await startOpTest();
});
afterAll(() => s?.close());

type Client = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: string;
};

/** The user of `jar` goes through the flow for `client`; the client exchanges the code. */
async function authorize(client: Client, jar: CookieJar, params: Record<string, string> = {}) {
  const config = await discover(s.app, client);
  const request = await authorizationRequest(config, client.redirect_uris[0], params);
  const { url } = await browse(s.app, jar, request.url);
  expect(`${url.origin}${url.pathname}`).toBe(client.redirect_uris[0]);
  const tokens = await oidc.authorizationCodeGrant(config, url, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
  });
  return { config, tokens, url };
}

async function publishedKeys() {
  return createLocalJWKSet((await call(s.app, `${ISSUER}/oauth2/jwks`)).json());
}

describe('discovery', () => {
  it('publishes the issuer and its endpoints, S256 only, the iss response parameter and RS256 id tokens', async () => {
    const config = await discover(s.app, FIRST_PARTY);
    const meta = config.serverMetadata();
    expect(meta).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      userinfo_endpoint: `${ISSUER}/oauth2/userinfo`,
      jwks_uri: `${ISSUER}/oauth2/jwks`,
      introspection_endpoint: `${ISSUER}/oauth2/introspect`,
      revocation_endpoint: `${ISSUER}/oauth2/revoke`,
      end_session_endpoint: `${ISSUER}/oauth2/end-session`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
    });
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
    expect(meta.grant_types_supported).not.toContain('implicit');
    expect(meta.id_token_signing_alg_values_supported).toContain('RS256');
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'offline_access']));
  });

  it('answers the RFC 8414 document at the root with the same issuer', async () => {
    const res = await call(s.app, '/.well-known/oauth-authorization-server/api/auth');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ issuer: ISSUER, token_endpoint: `${ISSUER}/oauth2/token` });
  });

  it('lets any origin read the discovery document and the keys (CORS), with the security headers', async () => {
    const res = await call(s.app, `${ISSUER}/.well-known/openid-configuration`, {
      headers: { origin: 'https://anyone.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://anyone.example');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('authorization code with PKCE', () => {
  it('signs a signed-in user in end to end: code with iss, a verified id token, userinfo', async () => {
    const u = await signUp(s.app, { name: 'Ada Lovelace', language: 'GERMAN' });
    const { config, tokens, url } = await authorize(FIRST_PARTY, u.jar);
    expect(url.searchParams.get('iss')).toBe(ISSUER); // RFC 9207
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, await publishedKeys(), {
      issuer: ISSUER,
      audience: FIRST_PARTY.client_id,
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe(u.userId);
    expect(tokens.claims()?.sub).toBe(u.userId);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, u.userId);
    expect(info).toEqual({
      sub: u.userId,
      email: u.email,
      email_verified: false,
      name: 'Ada Lovelace',
      locale: 'de',
    });
  });

  it('rotates refresh tokens: each use gives a new one; using an old one again is refused and ends the grant', async () => {
    const u = await signUp(s.app);
    const { config, tokens } = await authorize(FIRST_PARTY, u.jar);
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, u.userId)).sub).toBe(u.userId);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // the reuse revoked everything of the grant: the newer refresh token and its access token too
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, u.userId)).rejects.toThrow();
  });

  it('keeps grants and refresh tokens in PostgreSQL, codes and access tokens in the key-value store', async () => {
    const u = await signUp(s.app);
    const { tokens } = await authorize(FIRST_PARTY, u.jar);
    const rows = await s.t.ctx.sql.query<{ model: string; user_id: string }>(
      'SELECT model, user_id FROM oidc_records WHERE user_id = $1 ORDER BY model',
      [u.userId],
    );
    expect(rows.map((r) => r.model)).toEqual(['Grant', 'RefreshToken']);
    const prefix = s.t.config.redisPrefix;
    expect(await s.t.ctx.redis!.exists(`${prefix}oidc:AccessToken:${tokens.access_token}`)).toBe(1);
  });

  it('a public client (no secret) completes the flow with PKCE', async () => {
    const u = await signUp(s.app);
    const { config, tokens } = await authorize(PUBLIC_SPA, u.jar);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, u.userId)).sub).toBe(u.userId);
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
  });

  it('introspects (RFC 7662) and revokes (RFC 7009) an access token', async () => {
    const u = await signUp(s.app);
    const { config, tokens } = await authorize(FIRST_PARTY, u.jar);
    const active = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(active).toMatchObject({ active: true, sub: u.userId, client_id: FIRST_PARTY.client_id });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, u.userId)).rejects.toThrow();
  });
});

describe('client credentials', () => {
  it('issues a token with the scopes asked for, within the client’s own', async () => {
    const config = await discover(s.app, MACHINE);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'reports:read' });
    expect(tokens.scope).toBe('reports:read');
    expect(tokens.refresh_token).toBeUndefined();
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, client_id: MACHINE.client_id, scope: 'reports:read' });
    expect(introspected.sub).toBeUndefined();
  });

  it('refuses a known scope the client may not ask for, and grants none that nobody may ask for', async () => {
    const config = await discover(s.app, MACHINE);
    await expect(oidc.clientCredentialsGrant(config, { scope: 'openid' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
    const unknown = await oidc.clientCredentialsGrant(config, { scope: 'reports:read admin' });
    expect(unknown.scope).toBe('reports:read');
    expect((await oidc.tokenIntrospection(config, unknown.access_token)).scope).toBe('reports:read');
  });

  it('refuses a wrong secret and a client not allowed the grant', async () => {
    const wrong = await discover(s.app, { ...MACHINE, client_secret: `${MACHINE.client_secret}x` });
    const refused = await oidc.clientCredentialsGrant(wrong, { scope: 'reports:read' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({ status: 401 });
    expect((refused as oidc.WWWAuthenticateChallengeError).cause[0].parameters.error).toBe('invalid_client');
    const other = await discover(s.app, FIRST_PARTY);
    await expect(oidc.clientCredentialsGrant(other, {})).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
  });
});

describe('mounted in the service', () => {
  it('each endpoint is a route of its own with its declared rate limit; the consent API refuses API keys', () => {
    const declared = s.app.routePolicies.routes();
    const policy = (method: string, path: string) =>
      declared.find((r) => r.method === method && r.path === path)?.policy;
    expect(policy('POST', '/oauth2/token')?.rateLimit).toEqual({ windowSec: 60, max: 120 });
    expect(policy('GET', '/oauth2/authorize')?.rateLimit).toBe('challenge');
    expect(policy('POST', '/interaction/:uid/consent')?.apiKeys).toBe('refused');
    expect(policy('GET', '/interaction/:uid')?.apiKeys).toBe('refused');
  });

  it('answers CORS per client, not per trusted origin, and skips the service’s Origin check', async () => {
    const preflight = (origin: string) =>
      call(s.app, `${ISSUER}/oauth2/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    // the preflight names no client: the library lets it through, and decides on the request itself
    const spa = await preflight('https://spa.example.test');
    expect(spa.statusCode).toBe(204);
    expect(spa.headers['access-control-allow-origin']).toBe('https://spa.example.test');
    const tokenCall = (origin: string) =>
      call(s.app, `${ISSUER}/oauth2/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=refresh_token&refresh_token=x&client_id=${PUBLIC_SPA.client_id}`,
      });
    // a browser's form-encoded POST from the client's own origin reaches the provider (an OAuth error, not
    // the service's INVALID_ORIGIN), and may be read there
    const own = await tokenCall('https://spa.example.test');
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe('invalid_grant');
    expect(own.headers['access-control-allow-origin']).toBe('https://spa.example.test');
    // from another origin: refused, and the browser may not read the answer
    const other = await tokenCall('https://evil.example');
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe('invalid_request');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('form_post answers a page whose one inline script the Content-Security-Policy lets run (by its hash)', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { response_mode: 'form_post' });
    const { res } = await browse(s.app, u.jar, request.url);
    expect(res?.statusCode).toBe(200);
    expect(res?.body).toContain(`action="${FIRST_PARTY.redirect_uris[0]}"`);
    expect(res?.body).toMatch(/name="code" value="[^"]+"/);
    const csp = String(res?.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('while the service drains, its answers close their connection as the service’s own do', async () => {
    s.t.ctx.lifecycle.draining = true;
    try {
      const res = await call(s.app, `${ISSUER}/oauth2/jwks`);
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
    } finally {
      s.t.ctx.lifecycle.draining = false;
    }
    expect((await call(s.app, `${ISSUER}/oauth2/jwks`)).headers.connection).not.toBe('close');
  });

  it('keeps request ids, metrics by route, and security headers that do not break the provider', async () => {
    const res = await call(s.app, `${ISSUER}/oauth2/jwks`, { headers: { 'x-request-id': 'op-test-1' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const metrics = (await s.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/route="\/api\/auth\/oauth2\/jwks"/);
  });
});

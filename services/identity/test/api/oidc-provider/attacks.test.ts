import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { type CookieJar, signUp } from '../../setup/fixtures';
import {
  authorizationRequest,
  browse,
  call,
  discover,
  FIRST_PARTY,
  ISSUER,
  MACHINE,
  type OpTest,
  startOpTest,
  THIRD_PARTY,
} from './helpers';

/**
 * What an attacker tries against the provider (docs/oidc-provider.md, "Security"): an unknown client or a redirect
 * URI the client did not register gets an error page, never a redirect; PKCE is required and S256 only; a code
 * works once; a banned user gets nothing; bad input anywhere is an OAuth error, never a 500.
 */
let s: OpTest;
beforeAll(async () => {
  s = await startOpTest();
});
afterAll(() => s?.close());

const REDIRECT = FIRST_PARTY.redirect_uris[0];
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

function authorizeUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    scope: 'openid',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  for (const [key, value] of Object.entries(params)) if (value === '') query.delete(key);
  return `${ISSUER}/oauth2/authorize?${query}`;
}

async function expectErrorPage(url: string, jar?: CookieJar) {
  const res = await call(s.app, url, { jar });
  expect(res.statusCode).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain('This sign-in request cannot go on');
  return res;
}

describe('unknown client, unregistered redirect URI: an error page, never a redirect', () => {
  it('an unknown client', async () => {
    const u = await signUp(s.app);
    await expectErrorPage(authorizeUrl({ client_id: 'nobody', redirect_uri: 'https://evil.example/cb' }), u.jar);
  });

  it.each([
    ['a path suffix', `${REDIRECT}/more`],
    ['a longer last segment', `${REDIRECT}x`],
    ['a prefix', 'https://app.example.test/'],
    ['a query added', `${REDIRECT}?next=https://evil.example`],
    ['a fragment', `${REDIRECT}#x`],
    ['another port', 'https://app.example.test:8443/callback'],
    ['http instead of https', 'http://app.example.test/callback'],
    ['a host suffix', 'https://app.example.test.evil.example/callback'],
    ['userinfo before the host', 'https://app.example.test@evil.example/callback'],
    ['a percent-encoded path', 'https://app.example.test/%63allback'],
    ['upper-case host', 'https://APP.example.test/callback'],
    ['a trailing dot in the host', 'https://app.example.test./callback'],
    ['a dot segment', 'https://app.example.test/x/../callback'],
    ['a trailing slash', `${REDIRECT}/`],
    ['another scheme', 'javascript:alert(1)//app.example.test/callback'],
  ])('%s', async (_what, redirectUri) => {
    const u = await signUp(s.app);
    await expectErrorPage(authorizeUrl({ client_id: FIRST_PARTY.client_id, redirect_uri: redirectUri }), u.jar);
  });
});

describe('PKCE', () => {
  it.each([
    ['missing', { code_challenge: '', code_challenge_method: '' }],
    ['plain', { code_challenge: verifier, code_challenge_method: 'plain' }],
    ['without a method', { code_challenge_method: '' }],
  ])('%s: refused (the error goes back to the registered redirect URI), no code', async (_what, pkce) => {
    const u = await signUp(s.app);
    const url = authorizeUrl({ client_id: FIRST_PARTY.client_id, redirect_uri: REDIRECT, ...pkce });
    const { url: back } = await browse(s.app, u.jar, url);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('iss')).toBe(ISSUER);
  });

  it('a wrong code_verifier at the token endpoint is refused', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, REDIRECT);
    const { url } = await browse(s.app, u.jar, request.url);
    await expect(
      oidc.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: request.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('codes', () => {
  it('a code works once; its replay is refused and revokes what the first use issued', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, REDIRECT);
    const { url } = await browse(s.app, u.jar, request.url);
    const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state };
    const tokens = await oidc.authorizationCodeGrant(config, url, checks);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, u.userId)).sub).toBe(u.userId);
    await expect(oidc.authorizationCodeGrant(config, url, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, u.userId)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('two exchanges of one code at the same moment: one gets tokens, at most', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, REDIRECT);
    const { url } = await browse(s.app, u.jar, request.url);
    const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state };
    const results = await Promise.allSettled([
      oidc.authorizationCodeGrant(config, url, checks),
      oidc.authorizationCodeGrant(config, url, checks),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as { error?: string }).error).toBe('invalid_grant');
  });

  it('a code is the client’s own: another client cannot redeem it', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, REDIRECT);
    const { url } = await browse(s.app, u.jar, request.url);
    const code = url.searchParams.get('code')!;
    const redeem = (client: { client_id: string; client_secret: string }) =>
      call(s.app, `${ISSUER}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          code_verifier: request.verifier,
          client_id: client.client_id,
          client_secret: client.client_secret,
        }).toString(),
      });
    // another client with the grant type: the code is not its own
    const other = await redeem(THIRD_PARTY);
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ error: 'invalid_grant', error_description: 'grant request is invalid' });
    // a client without it: refused before the code is looked at
    const machine = await redeem(MACHINE);
    expect(machine.statusCode).toBe(400);
    expect(machine.json().error).toBe('invalid_request');
  });
});

describe('a banned user', () => {
  const ban = (userId: string) => s.t.ctx.sql.query('UPDATE users SET banned = true WHERE id = $1', [userId]);

  it('gets no token for a code issued before the ban, no refresh, no userinfo, and is not signed in', async () => {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const before = await authorizationRequest(config, REDIRECT);
    const { tokens } = await (async () => {
      const { url } = await browse(s.app, u.jar, before.url);
      return {
        tokens: await oidc.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: before.verifier,
          expectedState: before.state,
        }),
      };
    })();
    const pending = await authorizationRequest(config, REDIRECT);
    const { url: pendingCode } = await browse(s.app, u.jar, pending.url);
    await ban(u.userId);

    await expect(
      oidc.authorizationCodeGrant(config, pendingCode, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, u.userId)).rejects.toMatchObject({ status: 401 });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    const again = await authorizationRequest(config, REDIRECT, { prompt: 'none' });
    expect((await browse(s.app, u.jar, again.url)).url.searchParams.get('error')).toBe('login_required');
  });
});

describe('bad input answers an OAuth error, never a 500', () => {
  const basic = `Basic ${Buffer.from(`${FIRST_PARTY.client_id}:${FIRST_PARTY.client_secret}`).toString('base64')}`;
  const form = 'application/x-www-form-urlencoded';
  const cases: Array<[string, string, string, { headers?: Record<string, string>; body?: string }]> = [
    ['token: no body, no client', 'POST', '/oauth2/token', {}],
    [
      'token: JSON',
      'POST',
      '/oauth2/token',
      { headers: { 'content-type': 'application/json' }, body: '{"grant_type":"x"}' },
    ],
    ['token: text/plain', 'POST', '/oauth2/token', { headers: { 'content-type': 'text/plain' }, body: 'hello' }],
    [
      'token: unknown grant',
      'POST',
      '/oauth2/token',
      { headers: { 'content-type': form, authorization: basic }, body: 'grant_type=magic' },
    ],
    [
      'token: garbage code',
      'POST',
      '/oauth2/token',
      {
        headers: { 'content-type': form, authorization: basic },
        body: `grant_type=authorization_code&code=x&redirect_uri=${encodeURIComponent(REDIRECT)}&code_verifier=${verifier}`,
      },
    ],
    [
      'token: garbage refresh token',
      'POST',
      '/oauth2/token',
      { headers: { 'content-type': form, authorization: basic }, body: 'grant_type=refresh_token&refresh_token=x' },
    ],
    [
      'token: broken Basic header',
      'POST',
      '/oauth2/token',
      { headers: { 'content-type': form, authorization: 'Basic !!!' }, body: 'grant_type=client_credentials' },
    ],
    [
      'token: duplicate parameters',
      'POST',
      '/oauth2/token',
      {
        headers: { 'content-type': form, authorization: basic },
        body: 'grant_type=refresh_token&grant_type=refresh_token&refresh_token=x',
      },
    ],
    [
      'token: an oversized body',
      'POST',
      '/oauth2/token',
      {
        headers: { 'content-type': form, authorization: basic },
        body: `grant_type=refresh_token&refresh_token=${'x'.repeat(80_000)}`,
      },
    ],
    [
      'token: a malformed percent-encoding',
      'POST',
      '/oauth2/token',
      { headers: { 'content-type': form, authorization: basic }, body: 'grant_type=%E0%A4%A' },
    ],
    ['userinfo: no token', 'GET', '/oauth2/userinfo', {}],
    ['userinfo: garbage token', 'GET', '/oauth2/userinfo', { headers: { authorization: 'Bearer garbage' } }],
    ['introspection: no client', 'POST', '/oauth2/introspect', { headers: { 'content-type': form }, body: 'token=x' }],
    [
      'introspection: no token',
      'POST',
      '/oauth2/introspect',
      { headers: { 'content-type': form, authorization: basic }, body: '' },
    ],
    [
      'revocation: no token',
      'POST',
      '/oauth2/revoke',
      { headers: { 'content-type': form, authorization: basic }, body: '' },
    ],
    ['par: no client', 'POST', '/oauth2/par', { headers: { 'content-type': form }, body: 'response_type=code' }],
  ];
  it.each(cases)('%s', async (_what, method, path, init) => {
    const res = await call(s.app, `${ISSUER}${path}`, { method, ...init });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof res.json().error).toBe('string');
  });

  it.each([
    ['authorize: no parameters', '/oauth2/authorize'],
    ['authorize: repeated parameters', `/oauth2/authorize?client_id=${FIRST_PARTY.client_id}&client_id=x`],
    [
      'authorize: a redirect URI that is not a URL',
      `/oauth2/authorize?client_id=${FIRST_PARTY.client_id}&redirect_uri=%00`,
    ],
    ['resume: no such request', '/oauth2/authorize/nothing-here'],
  ])('%s: the error page', async (_what, path) => {
    const res = await call(s.app, `${ISSUER}${path}`);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('This sign-in request cannot go on');
  });

  it('end-session: a garbage id_token_hint is an OAuth error, no redirect', async () => {
    const res = await call(s.app, `${ISSUER}/oauth2/end-session?id_token_hint=garbage`);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('authorize: a known client and nothing else goes back to its one registered redirect URI with the error', async () => {
    const res = await call(s.app, `${ISSUER}/oauth2/authorize?client_id=${FIRST_PARTY.client_id}`);
    expect(res.statusCode).toBe(303);
    const back = new URL(res.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('iss')).toBe(ISSUER);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as oidc from 'openid-client';
import type { OidcClientConfig } from '../../../src/config';
import { PUBLIC_URL, startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { CookieJar } from '../../setup/fixtures';

/** The service's public origin in these tests: https, so openid-client runs with its defaults (no insecure HTTP). */
export const ORIGIN = 'https://id.example.test';
export const ISSUER = `${ORIGIN}/api/auth`;

export const FIRST_PARTY = {
  client_id: 'first-app',
  client_secret: 'first-app-secret-0123456789-abcdefghijklmnop',
  client_name: 'First App',
  redirect_uris: ['https://app.example.test/callback'],
  post_logout_redirect_uris: ['https://app.example.test/signed-out'],
  grant_types: ['authorization_code', 'refresh_token'],
  first_party: true,
} satisfies OidcClientConfig;

export const THIRD_PARTY = {
  client_id: 'third-app',
  client_secret: 'third-app-secret-0123456789-abcdefghijklmnop',
  client_name: 'Third App',
  logo_uri: 'https://third.example/logo.png',
  redirect_uris: ['https://third.example/cb'],
  grant_types: ['authorization_code'],
  token_endpoint_auth_method: 'client_secret_post',
} satisfies OidcClientConfig;

export const PUBLIC_SPA = {
  client_id: 'spa',
  redirect_uris: ['https://spa.example.test/cb'],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'none',
  first_party: true,
} satisfies OidcClientConfig;

export const MACHINE = {
  client_id: 'reports-job',
  client_secret: 'reports-job-secret-0123456789-abcdefghijklmn',
  grant_types: ['client_credentials'],
  scope: 'reports:read reports:write',
} satisfies OidcClientConfig;

export interface OpTest {
  t: TestApp;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The service with the provider on, the four clients above, and hosted pages served from a stand-in build. */
export async function startOpTest(env: Record<string, string> = {}, logTo?: NodeJS.WritableStream): Promise<OpTest> {
  const dir = mkdtempSync(join(tmpdir(), 'op-hosted-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Sign in</title></head><body></body></html>',
  );
  const t = await startTestApp(
    { oidcProvider: { enabled: true, clients: [FIRST_PARTY, THIRD_PARTY, PUBLIC_SPA, MACHINE] } },
    {
      PUBLIC_URL: ORIGIN,
      // the fixtures' POSTs carry the usual test origin
      TRUSTED_ORIGINS: `${TRUSTED_ORIGIN},${PUBLIC_URL}`,
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: dir,
      ...env,
    },
    logTo,
  ).catch((error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    t,
    app: t.app,
    close: async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A request to the service at ORIGIN, answered in process. */
export async function call(
  app: FastifyInstance,
  url: string | URL,
  init: { method?: string; headers?: Record<string, string>; body?: string; jar?: CookieJar } = {},
): Promise<LightMyRequestResponse> {
  const target = new URL(url, ORIGIN);
  if (target.origin !== ORIGIN) throw new Error(`not the service: ${target}`);
  const headers = { ...init.headers };
  if (init.jar?.cookies.size) headers.cookie = init.jar.header();
  const response = await app.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: target.pathname + target.search,
    headers,
    ...(init.body === undefined ? {} : { payload: init.body }),
  });
  init.jar?.store(response);
  return response;
}

/** openid-client's fetch, answered by the service in process (requests elsewhere fail the test). */
export function serviceFetch(app: FastifyInstance): oidc.CustomFetch {
  return async (url, options) => {
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit).forEach((value, key) => {
      headers[key] = value;
    });
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    const res = await call(app, url, { method: options.method, headers, body });
    const out = new Headers();
    for (const [key, value] of Object.entries(res.headers))
      if (value !== undefined) for (const v of ([] as Array<string | number>).concat(value)) out.append(key, String(v));
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
}

/** openid-client's configuration for `client` by discovery, on the service in process; its defaults otherwise. */
export async function discover(
  app: FastifyInstance,
  client: { client_id: string; client_secret?: string; token_endpoint_auth_method?: string },
): Promise<oidc.Configuration> {
  const auth =
    client.token_endpoint_auth_method === 'none'
      ? oidc.None()
      : client.token_endpoint_auth_method === 'client_secret_post'
        ? oidc.ClientSecretPost(client.client_secret!)
        : oidc.ClientSecretBasic(client.client_secret!);
  const config = await oidc.discovery(new URL(ISSUER), client.client_id, undefined, auth, {
    [oidc.customFetch]: serviceFetch(app),
  });
  config[oidc.customFetch] = serviceFetch(app);
  return config;
}

/**
 * A browser: follows the service's redirects (303/302) with its cookies until it leaves the service (answers that
 * URL) or gets an answer that is not a redirect (answers the last URL and that answer).
 */
export async function browse(
  app: FastifyInstance,
  jar: CookieJar,
  start: string | URL,
): Promise<{ url: URL; res?: LightMyRequestResponse }> {
  let next = new URL(start, ORIGIN);
  for (let hop = 0; hop < 12; hop++) {
    if (next.origin !== ORIGIN || next.pathname.startsWith('/auth/')) return { url: next };
    const res = await call(app, next, { jar });
    const location = res.headers.location;
    if (res.statusCode < 300 || res.statusCode >= 400 || typeof location !== 'string') return { url: next, res };
    next = new URL(location, next);
  }
  throw new Error('too many redirects');
}

/** An authorization request of `config`'s client with PKCE (S256), and what the client keeps to finish it. */
export async function authorizationRequest(
  config: oidc.Configuration,
  redirectUri: string,
  params: Record<string, string> = {},
): Promise<{ url: URL; verifier: string; state: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...params,
  });
  return { url, verifier, state };
}

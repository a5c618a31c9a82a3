import * as oidc from 'openid-client';
import { mapProfile } from './profile';
import type { Provider } from './providers/registry';
import type { Doc, Profile } from './providers/types';

export interface AuthorizationRequest {
  state: string;
  codeVerifier: string;
  nonce: string | null;
  scopes?: string[];
  loginHint?: string;
}

/** Provider tokens as the token endpoint gave them (plain text: sealed by the repository). */
export interface ProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
  /** Validated id-token claims when the token endpoint sent an id token. */
  claims: Doc | null;
}

/** The authorization URL: client id, redirect URI, scopes, state, PKCE S256 challenge, nonce where OIDC. */
export async function authorizationUrl(p: Provider, request: AuthorizationRequest): Promise<string> {
  const scopes = [...new Set([...p.def.scopes, ...(request.scopes ?? [])])];
  const params: Record<string, string> = {
    redirect_uri: p.redirectUri,
    response_type: 'code',
    state: request.state,
    code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
    code_challenge_method: 'S256',
    ...p.def.authParams,
  };
  if (scopes.length) params.scope = scopes.join(p.def.scopeSeparator ?? ' ');
  if (p.def.clientIdParam) params[p.def.clientIdParam] = p.settings.clientId;
  if (request.nonce) params.nonce = request.nonce;
  if (request.loginHint) params.login_hint = request.loginHint;
  if (p.settings.prompt) params.prompt = p.settings.prompt;
  if (p.def.responseMode) params.response_mode = p.def.responseMode;
  return oidc.buildAuthorizationUrl(p.client, params).href;
}

/** Code → tokens at the token endpoint, with the PKCE verifier; the id token (if any) checked for iss, aud, nonce, exp. */
export async function exchangeCode(
  p: Provider,
  callback: Record<string, string>,
  checks: { state: string; codeVerifier: string; nonce: string | null },
  now: number,
): Promise<ProviderTokens> {
  const current = new URL(p.redirectUri);
  for (const key of ['code', 'state', 'iss']) if (callback[key]) current.searchParams.set(key, callback[key]);
  const extra: Record<string, string> = {};
  for (const key of p.def.callbackParams ?? []) if (callback[key]) extra[key] = callback[key];
  if (p.def.clientIdParam) extra[p.def.clientIdParam] = p.settings.clientId; // TikTok: client_key
  const response = await oidc.authorizationCodeGrant(
    p.client,
    current,
    { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce ?? undefined },
    extra,
  );
  return toTokens(response, now);
}

export async function refreshTokens(p: Provider, refreshToken: string, now: number): Promise<ProviderTokens> {
  const extra: Record<string, string> = p.def.clientIdParam ? { [p.def.clientIdParam]: p.settings.clientId } : {};
  const response = await oidc.refreshTokenGrant(p.client, refreshToken, extra);
  const tokens = toTokens(response, now);
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken }; // not rotated: the old one stays valid
}

/**
 * The provider's user-info document(s) mapped to the user fields; raw documents kept for account-info. With a
 * validated id token, an OpenID Connect userinfo endpoint must answer for the token's subject (OIDC Core §5.3.2:
 * openid-client refuses any other `sub`, or none), and the identity fields come from the token (profile.ts).
 */
export async function fetchProfile(
  p: Provider,
  accessToken: string | null,
  claims: Doc | null,
  callbackUser?: unknown,
): Promise<{ profile: Profile | null; raw: Doc }> {
  let userInfo: Doc | null = null;
  const extra: Doc = {};
  if (p.def.userInfoEndpoint && accessToken) {
    const subject = typeof claims?.sub === 'string' ? claims.sub : null;
    userInfo =
      subject && speaksOidc(p)
        ? ((await oidc.fetchUserInfo(p.client, accessToken, subject)) as Doc)
        : await fetchJson(p, accessToken, p.def.userInfoEndpoint, p.def.userInfoMethod ?? 'GET');
    for (const [key, url] of Object.entries(p.def.userInfoExtras ?? {}))
      extra[key] = await fetchJson(p, accessToken, url, 'GET').catch(() => null);
  }
  const profile = mapProfile(p.def, { userInfo, claims, extra, callbackUser });
  return { profile, raw: { ...(userInfo ?? claims ?? {}), ...extra } };
}

/** The flow asked for `openid`: the user-info endpoint is OpenID Connect's (it answers `sub`), read with GET. */
const speaksOidc = (p: Provider) => p.def.scopes.includes('openid') && (p.def.userInfoMethod ?? 'GET') === 'GET';

async function fetchJson(p: Provider, token: string, url: string, method: 'GET' | 'POST'): Promise<Doc> {
  const headers = new Headers({ accept: 'application/json' });
  let body: URLSearchParams | undefined;
  if (method === 'POST' && p.id === 'vk')
    body = new URLSearchParams({ client_id: p.settings.clientId, access_token: token });
  const response = await oidc.fetchProtectedResource(p.client, token, new URL(url), method, body, headers);
  if (!response.ok) throw new Error(`user info ${response.status}`);
  const doc = (await response.json()) as unknown;
  if (!doc || typeof doc !== 'object') throw new Error('user info is not an object');
  return doc as Doc;
}

function toTokens(r: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers, now: number): ProviderTokens {
  const refreshIn = Number((r as Doc).refresh_token_expires_in);
  return {
    accessToken: r.access_token ?? null,
    refreshToken: r.refresh_token ?? null,
    idToken: r.id_token ?? null,
    accessTokenExpiresAt: r.expires_in ? new Date(now + r.expires_in * 1000) : null,
    refreshTokenExpiresAt: Number.isFinite(refreshIn) && refreshIn > 0 ? new Date(now + refreshIn * 1000) : null,
    scopes: r.scope ? r.scope.split(/[ ,]+/).filter(Boolean) : [],
    claims: (r.claims() as Doc | undefined) ?? null,
  };
}

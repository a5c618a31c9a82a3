import { type ErrorCode, fail } from '../../errors';
import type { ClientType, GrantType } from './schemas';
import type { ClientSettings } from './types';

/**
 * The registration rules (docs/oauth-clients.md "Rules"), pure: each refusal is a catalogue error whose details
 * name the field (`redirectUris/2`) and what is wrong with it. `check` answers the settings with repeated list
 * entries dropped (in the order given).
 */

/** The loopback hosts a native app listens on (RFC 8252 §7.3), as the WHATWG URL parser names them. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** White space or a control character: never part of a URI a client sends back exactly. */
const unsafe = (uri: string) =>
  /\s/.test(uri) || [...uri].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const DEVICE_CODE: GrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * What is wrong with a redirect (or post-logout redirect) URI, or null. Absolute, without a fragment or
 * credentials; https, except, for public (native) clients only, http on a loopback host and private-use schemes in
 * reverse domain name form (RFC 8252 §7.1, `com.example.app:/callback`).
 */
export function redirectUriProblem(uri: string, type: ClientType): string | null {
  if (unsafe(uri)) return 'contains white space or a control character';
  if (uri.includes('#')) return 'has a fragment (#)';
  const url = parseUri(uri);
  if (!url) return 'is not an absolute URI';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https' || scheme === 'http') {
    if (!/^https?:\/\/[^/]/i.test(uri)) return 'is not an absolute URI';
    if (url.username || url.password) return 'carries credentials';
    if (scheme === 'https') return null;
    if (!LOOPBACK_HOSTS.has(url.hostname))
      return 'uses http: only loopback addresses (127.0.0.1, [::1], localhost) may, and only for public clients';
    return type === 'public' ? null : 'uses http on a loopback address, which only public (native) clients may';
  }
  if (!scheme.includes('.'))
    return 'is neither https nor a private-use scheme in reverse domain name form (com.example.app:/callback)';
  return type === 'public' ? null : 'uses a private-use scheme, which only public (native) clients may';
}

/** What is wrong with a URI the service or a browser fetches (a logo, the back-channel logout), or null: https only. */
export function httpsUriProblem(uri: string): string | null {
  if (unsafe(uri)) return 'contains white space or a control character';
  if (uri.includes('#')) return 'has a fragment (#)';
  const url = parseUri(uri);
  if (!url || !/^https:\/\/[^/]/i.test(uri)) return 'is not an absolute https URI';
  if (url.username || url.password) return 'carries credentials';
  return null;
}

function parseUri(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

function refuse(code: ErrorCode, field: string, problem: string): never {
  fail(code, [{ field, problem }]);
}

/** Checks a client's settings as a whole (a change is checked on the client it makes); answers them tidied. */
export function checkClient(settings: ClientSettings, knownScopes: readonly string[]): ClientSettings {
  const { type } = settings;
  const redirectUris = unique(settings.redirectUris);
  const postLogoutRedirectUris = unique(settings.postLogoutRedirectUris);
  const grantTypes = unique(settings.grantTypes);
  const scopes = unique(settings.scopes);

  for (const [field, uris] of [
    ['redirectUris', redirectUris],
    ['postLogoutRedirectUris', postLogoutRedirectUris],
  ] as const)
    uris.forEach((uri, i) => {
      const problem = redirectUriProblem(uri, type);
      if (problem) refuse('INVALID_REDIRECT_URI', `${field}/${i}`, problem);
    });
  const logo = settings.logoUri === null ? null : httpsUriProblem(settings.logoUri);
  if (logo) refuse('INVALID_LOGO_URI', 'logoUri', logo);
  const logout = settings.backchannelLogoutUri === null ? null : httpsUriProblem(settings.backchannelLogoutUri);
  if (logout) refuse('INVALID_BACKCHANNEL_LOGOUT_URI', 'backchannelLogoutUri', logout);

  grantTypes.forEach((grant, i) => {
    if (grant === 'client_credentials' && type !== 'confidential')
      refuse('GRANT_TYPE_NOT_ALLOWED', `grantTypes/${i}`, 'client_credentials needs a confidential client');
    if (grant === 'refresh_token' && !grantTypes.some((g) => g === 'authorization_code' || g === DEVICE_CODE))
      refuse(
        'GRANT_TYPE_NOT_ALLOWED',
        `grantTypes/${i}`,
        'refresh_token needs authorization_code or the device code grant, which issue refresh tokens',
      );
  });
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0)
    refuse('REDIRECT_URI_REQUIRED', 'redirectUris', 'the authorization code grant redirects to one of them');

  scopes.forEach((scope, i) => {
    if (!knownScopes.includes(scope)) refuse('UNKNOWN_SCOPE', `scopes/${i}`, `not one of: ${knownScopes.join(' ')}`);
  });

  const method = settings.tokenEndpointAuthMethod;
  if (type === 'public' && method !== 'none')
    refuse('INVALID_TOKEN_ENDPOINT_AUTH_METHOD', 'tokenEndpointAuthMethod', 'a public client has no secret: none');
  if (type === 'confidential' && method === 'none')
    refuse(
      'INVALID_TOKEN_ENDPOINT_AUTH_METHOD',
      'tokenEndpointAuthMethod',
      'a confidential client authenticates with its secret: client_secret_basic or client_secret_post',
    );
  if (type === 'public' && !settings.requirePkce)
    refuse('PUBLIC_CLIENT_REQUIRES_PKCE', 'requirePkce', 'a public client proves its requests with PKCE');

  return { ...settings, redirectUris, postLogoutRedirectUris, grantTypes, scopes };
}

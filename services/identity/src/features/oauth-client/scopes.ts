import type { Config } from '../../config';

/**
 * The scopes the service itself defines (docs/oauth-clients.md): OpenID Connect's own (`openid`, `profile`,
 * `email`, `offline_access` for refresh tokens) and `organization`, the user's active organization and role.
 */
export const STANDARD_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'organization'] as const;

/**
 * Every scope a client may be allowed: the standard ones, then the configured API scopes
 * (OAUTH_CLIENT_API_SCOPES), without repeats. The one list the registry's rules and the console's picker read.
 */
export function knownScopes(config: Pick<Config['oauthClients'], 'apiScopes'>): string[] {
  return [...new Set<string>([...STANDARD_SCOPES, ...config.apiScopes])];
}

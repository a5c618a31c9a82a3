import type { Config } from './schema';

/** spec §1: the providers known by name; any other id is a generic OIDC or OAuth 2 provider. */
export const NAMED_PROVIDERS = [
  'apple',
  'discord',
  'facebook',
  'github',
  'microsoft',
  'google',
  'huggingface',
  'spotify',
  'twitch',
  'twitter',
  'dropbox',
  'kick',
  'linkedin',
  'gitlab',
  'tiktok',
  'reddit',
  'roblox',
  'vk',
  'zoom',
] as const;

export type NamedProvider = (typeof NAMED_PROVIDERS)[number];

export const isNamedProvider = (id: string): id is NamedProvider => (NAMED_PROVIDERS as readonly string[]).includes(id);

/** `SOCIAL_<ID>_CLIENT_SECRET`: the id upper-cased, other characters as `_`. */
export const secretEnvName = (id: string): string =>
  `SOCIAL_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CLIENT_SECRET`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** http is accepted only for loopback hosts outside production (tests, local providers); https otherwise. */
export function isAllowedProviderUrl(raw: string, env: Config['env']): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && env !== 'production' && LOOPBACK.has(url.hostname);
}

/**
 * Reads provider secrets from the environment and checks each provider can work: a secret, a type for ids
 * that are not named, the endpoints its type needs, https URLs. The message names the setting.
 */
export function finishSocial(config: Config, env: Record<string, string | undefined>, bad: (why: string) => Error) {
  for (const [id, provider] of Object.entries(config.social.providers)) {
    const at = `setting "social.providers.${id}`;
    const secret = env[secretEnvName(id)];
    if (secret) provider.clientSecret = secret;
    if (!provider.clientSecret) throw bad(`${secretEnvName(id)}: the client secret of provider "${id}" is not set`);
    if (!isNamedProvider(id)) {
      if (!provider.type) throw bad(`${at}.type" is required for a provider that is not named (oidc or oauth2)`);
      if (provider.type === 'oidc' && !provider.discoveryUrl) throw bad(`${at}.discoveryUrl" is required for oidc`);
      if (provider.type === 'oauth2')
        for (const key of ['authorizationEndpoint', 'tokenEndpoint', 'userInfoEndpoint'] as const)
          if (!provider[key]) throw bad(`${at}.${key}" is required for oauth2`);
    }
    for (const key of [
      'discoveryUrl',
      'issuer',
      'authorizationEndpoint',
      'tokenEndpoint',
      'userInfoEndpoint',
      'jwksUri',
    ] as const) {
      const value = provider[key];
      if (value !== undefined && !isAllowedProviderUrl(value, config.env))
        throw bad(`${at}.${key}" must be an https URL (http only on loopback outside production)`);
    }
  }
}

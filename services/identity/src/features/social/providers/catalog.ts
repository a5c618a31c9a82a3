import type { NamedProvider } from '../../../config/social';
import { MORE_PROVIDERS } from './more-providers';
import { OAUTH_PROVIDERS } from './oauth-providers';
import { OIDC_PROVIDERS } from './oidc-providers';
import { bool, first, type Profile, type ProfileSource, type ProviderDefinition, str } from './types';

/** The 19 named providers of spec §1. */
export const CATALOG: Record<NamedProvider, ProviderDefinition> = {
  ...OIDC_PROVIDERS,
  ...OAUTH_PROVIDERS,
  ...MORE_PROVIDERS,
};

/** Generic providers: OIDC claim names first, then the common OAuth 2 profile spellings. */
export function genericProfile({ userInfo, claims }: ProfileSource): Profile | null {
  const doc = { ...claims, ...userInfo };
  const id = first(doc.sub, doc.id);
  if (!id) return null;
  const email = str(doc.email);
  return {
    id,
    email,
    emailVerified: bool(doc.email_verified) || bool(doc.verified_email),
    name: first(doc.name, doc.preferred_username, doc.login, doc.username, email) ?? id,
    image: first(doc.picture, doc.avatar_url),
  };
}

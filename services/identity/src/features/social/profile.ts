import type { Profile, ProfileSource, ProviderDefinition } from './providers/types';

/**
 * A provider's documents mapped to the user fields, with who the user is taken from the validated id token
 * whenever there is one (OIDC Core §5.3.2, docs/SPEC.md §4 linking rule):
 * - the subject is the id token's, and the other documents must be about that same subject (a userinfo answer
 *   for someone else gives no profile: `unable_to_get_user_info`);
 * - when the id token carries an email, the email and whether it is verified are the id token's: a userinfo
 *   document may not swap the address or vouch for it, so it can neither change a user's email nor enable linking;
 * - every other field (name, picture) may come from the other documents.
 * Without id-token claims (plain OAuth 2 providers) the provider's own mapping is the profile.
 */
export function mapProfile(def: ProviderDefinition, source: ProfileSource): Profile | null {
  const merged = def.mapProfile(source);
  if (!merged || !source.claims) return merged;
  const fromToken = def.mapProfile({
    claims: source.claims,
    userInfo: null,
    extra: {},
    callbackUser: source.callbackUser,
  });
  if (!fromToken || fromToken.id !== merged.id) return null;
  const aboutOther = source.userInfo?.sub !== undefined && source.userInfo.sub !== source.claims.sub;
  if (aboutOther) return null;
  return fromToken.email ? { ...merged, email: fromToken.email, emailVerified: fromToken.emailVerified } : merged;
}

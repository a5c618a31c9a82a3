/** What a provider's profile document maps to: the user fields the service keeps. */
export interface Profile {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
}

export type Doc = Record<string, unknown>;

/** Everything a provider told us about the user: user-info document, id-token claims, extra documents. */
export interface ProfileSource {
  userInfo: Doc | null;
  claims: Doc | null;
  /** Documents fetched from `userInfoExtras`, by key (GitHub's email list). */
  extra: Doc;
  /** Apple's one-time `user` form field (name), parsed from JSON. */
  callbackUser?: unknown;
}

/** A provider's real endpoints, default scopes and profile mapping. */
export interface ProviderDefinition {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
  userInfoMethod?: 'GET' | 'POST';
  /** Fetched with the access token and handed to `mapProfile` under `extra[key]`. */
  userInfoExtras?: Record<string, string>;
  /** Id-token issuer and keys: the provider issues id tokens (also id-token sign-in). */
  issuer?: string;
  jwksUri?: string;
  scopes: string[];
  scopeSeparator?: string;
  /** The authorization parameter carrying the client id (TikTok: client_key). */
  clientIdParam?: string;
  authParams?: Record<string, string>;
  tokenAuth?: 'post' | 'basic';
  responseMode?: 'form_post';
  /** Callback parameters sent on to the token endpoint (VK ID: device_id). */
  callbackParams?: string[];
  mapProfile(source: ProfileSource): Profile | null;
}

export const str = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : null;

/** Providers send booleans, "true" strings (Apple) or 1 (Zoom). */
export const bool = (value: unknown): boolean => value === true || value === 'true' || value === 1;

export const obj = (value: unknown): Doc => (value && typeof value === 'object' ? (value as Doc) : {});

/** The first non-empty string, or null. */
export const first = (...values: unknown[]): string | null => {
  for (const v of values) {
    const s = str(v);
    if (s) return s;
  }
  return null;
};

/** Standard OIDC claims (user info over id-token claims); a profile needs a subject. */
export function oidcProfile(source: ProfileSource): Profile | null {
  const doc = { ...source.claims, ...source.userInfo };
  const id = str(doc.sub);
  if (!id) return null;
  const email = str(doc.email);
  return {
    id,
    email,
    emailVerified: bool(doc.email_verified),
    name:
      first(doc.name, [doc.given_name, doc.family_name].filter(Boolean).join(' '), doc.preferred_username, email) ?? id,
    image: str(doc.picture),
  };
}

import { hkdfSync } from 'node:crypto';

export type KeyPurpose =
  | 'cookie'
  | 'verification-jwt'
  | 'jwks-private-keys'
  | 'provider-tokens'
  | 'audit-email'
  | 'webhook-secrets'
  | 'two-factor-secrets'
  | 'one-time-codes'
  | 'oidc-provider-cookies';

/** Separate keys per purpose derived from AUTH_SECRET, so one leaked signature never serves another use. */
export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'identity-service', `identity/${purpose}`, 32));
}

/** The secret and the earlier ones still accepted (AUTH_SECRET, AUTH_SECRET_PREVIOUS). */
export interface Secrets {
  secret: string;
  previousSecrets: readonly string[];
}

/**
 * The keys of `purpose` for rotation (docs/security.md): the current secret's first, which alone signs and seals;
 * then one per previous secret, which still verify and open what was made before the rotation.
 */
export function deriveKeys(secrets: Secrets, purpose: KeyPurpose): Buffer[] {
  const distinct = [...new Set([secrets.secret, ...secrets.previousSecrets])];
  return distinct.map((secret) => deriveKey(secret, purpose));
}

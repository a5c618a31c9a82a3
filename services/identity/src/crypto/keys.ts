import { hkdfSync } from 'node:crypto';

export type KeyPurpose =
  | 'cookie'
  | 'session-cache'
  | 'verification-jwt'
  | 'state'
  | 'jwks-private-keys'
  | 'provider-tokens'
  | 'audit-email';

/** Separate keys per purpose derived from AUTH_SECRET, so one leaked signature never serves another use. */
export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'identity-service', `identity/${purpose}`, 32));
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomString } from '../../crypto/random';

/**
 * Client ids and secrets (docs/decisions/0021-oauth-client-secrets.md). A secret is 32 random bytes (256 bits),
 * base64url, answered once; what is stored is its SHA-256, which cannot be turned back into the secret and
 * is checked in microseconds. An id is 24 base62 characters (about 143 bits): URL-safe, never guessed.
 */
export const newClientId = (): string => randomString(24);

export const CLIENT_ID = /^[A-Za-z0-9]{24}$/;
export const isClientId = (value: unknown): value is string => typeof value === 'string' && CLIENT_ID.test(value);

export const newClientSecret = (): string => randomBytes(32).toString('base64url');

/** What the database holds for a secret: its scheme, then the SHA-256 digest (base64url). */
export function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;
}

/** A presented secret longer than this is refused before hashing (ours are 43 characters). */
const MAX_SECRET_LENGTH = 512;

/** Whether `presented` hashes to `stored`, compared in constant time. A missing hash matches nothing. */
export function secretMatches(stored: string | null, presented: string): boolean {
  if (!stored || presented.length > MAX_SECRET_LENGTH) return false;
  const expected = Buffer.from(stored);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

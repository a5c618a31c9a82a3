import { signValue, unsignValue } from '../../crypto/signed';
import type { SessionWithUser } from '../../shared/views';

/** Cookies larger than this are not set (spec §9: the session-cache cookie holds at most 4093 characters). */
export const COOKIE_CACHE_MAX_CHARS = 4093;

interface Payload {
  v: SessionWithUser;
  /** Epoch ms after which the cookie is ignored (max age, spec §9: 60 s by default). */
  exp: number;
}

/** The signed session-cache cookie value, or null when it would exceed the size limit. */
export function encodeCookieCache(
  value: SessionWithUser,
  maxAgeSec: number,
  now: number,
  key: Buffer,
  nameLength: number,
): string | null {
  const payload: Payload = { v: value, exp: now + maxAgeSec * 1000 };
  const encoded = signValue(Buffer.from(JSON.stringify(payload)).toString('base64url'), key);
  return nameLength + 1 + encoded.length <= COOKIE_CACHE_MAX_CHARS ? encoded : null;
}

/**
 * The cached session when the signature verifies, the cookie is within its max age, the session has not
 * expired, and it belongs to the session token presented beside it (a cache cookie cannot be paired with
 * another user's token).
 */
export function decodeCookieCache(cookie: string, token: string, now: number, key: Buffer): SessionWithUser | null {
  const payload = unsignValue(cookie, key);
  if (!payload) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Payload;
    if (typeof data.exp !== 'number' || data.exp <= now) return null;
    if (data.v?.session?.token !== token || Date.parse(data.v.session.expiresAt) <= now) return null;
    return data.v;
  } catch {
    return null;
  }
}

import type { Signer } from '@fastify/cookie';
import type { SessionWithUser } from '../shared/views';

/** Cookies larger than this are not set (spec §9: the session-cache cookie holds at most 4093 characters). */
export const COOKIE_CACHE_MAX_CHARS = 4093;

/** A verified session-cache cookie: the get-session body it carries and the times that bound its use. */
export interface CachedSession {
  /** The get-session body, as serialized by the response schema. */
  json: string;
  token: string;
  /** Epoch ms after which the cookie is ignored (max age, spec §9: 60 s by default). */
  exp: number;
  /** Epoch ms at which the session itself expires. */
  sessionExpires: number;
}

/**
 * The signed cookie value `base64url("<exp>|<json>").<signature>`, or null when it would exceed the size limit. The
 * body is kept as the exact response text so a cache hit sends it without parsing or re-serializing. Signed by the
 * token cookie's signer (session-cookies.ts); the two values cannot stand for each other: a token is 32 letters
 * and digits, which decode to no `<exp>|<json>`, and this payload is no session's token.
 */
export function encodeCookieCache(json: string, maxAgeSec: number, now: number, signer: Signer, nameLength: number) {
  const payload = Buffer.from(`${now + maxAgeSec * 1000}|${json}`).toString('base64url');
  const encoded = signer.sign(payload);
  return nameLength + 1 + encoded.length <= COOKIE_CACHE_MAX_CHARS ? encoded : null;
}

/**
 * The cookie's content when its signature verifies under the current secret; time and token checks are
 * `isUsable`'s. One signed under a previous secret (rotation, docs/security.md) is refused like a stale one: it
 * lives a minute at most, and get-session then looks the session up and sends a cache cookie under the current
 * secret.
 */
export function decodeCookieCache(cookie: string, signer: Signer): CachedSession | null {
  const unsigned = signer.unsign(cookie);
  if (!unsigned.valid || unsigned.renew) return null;
  const payload = unsigned.value;
  try {
    const text = Buffer.from(payload, 'base64url').toString();
    const bar = text.indexOf('|');
    const exp = Number(text.slice(0, bar));
    const json = text.slice(bar + 1);
    const value = JSON.parse(json) as SessionWithUser;
    const sessionExpires = Date.parse(value.session.expiresAt);
    if (!Number.isFinite(exp) || typeof value.session.token !== 'string' || Number.isNaN(sessionExpires)) return null;
    return { json, token: value.session.token, exp, sessionExpires };
  } catch {
    return null;
  }
}

/**
 * Within its max age, the session not expired, and issued for the session token presented beside it (a cache
 * cookie cannot be paired with another user's token).
 */
export function isUsable(cached: CachedSession, token: string, now: number): boolean {
  return cached.token === token && cached.exp > now && cached.sessionExpires > now;
}

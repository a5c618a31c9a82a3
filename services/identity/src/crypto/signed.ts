import { createHmac, timingSafeEqual } from 'node:crypto';

/** `<payload>.<base64url HMAC-SHA256>`; used for the session-cache cookie. */
export function signValue(payload: string, key: Buffer): string {
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

/** The payload when the signature is valid, otherwise null. Constant-time comparison. */
export function unsignValue(signed: string, key: Buffer): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', key).update(payload).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

import { timingSafeEqual } from 'node:crypto';

/** Equal strings, compared in constant time (credentials, OAuth state). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

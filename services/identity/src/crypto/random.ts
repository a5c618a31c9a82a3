import { randomBytes, randomUUID } from 'node:crypto';

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A CSPRNG string of `length` characters from `alphabet`, without modulo bias (rejection sampling). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Session tokens: 32 base62 characters ≈ 190 bits (at least 128 bits, so guessing one is hopeless). */
export const newSessionToken = (): string => randomString(32);

export const newId = (): string => randomUUID();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs: any other text names nothing (and must not reach a uuid column as a query error, a 500). */
export const isId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

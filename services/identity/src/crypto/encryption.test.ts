import { randomBytes } from 'node:crypto';
import { decrypt, encrypt } from './encryption';

describe('encryption at rest (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips, and a fresh IV makes every ciphertext different', () => {
    const a = encrypt('{"d":"secret"}', key, 'row-1');
    const b = encrypt('{"d":"secret"}', key, 'row-1');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('secret');
    expect(decrypt(a, key, 'row-1')).toBe('{"d":"secret"}');
  });

  it('refuses another key, another row (aad) and an altered ciphertext', () => {
    const sealed = encrypt('private', key, 'row-1');
    expect(() => decrypt(sealed, randomBytes(32), 'row-1')).toThrow();
    expect(() => decrypt(sealed, key, 'row-2')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2], 'base64url');
    body[0] ^= 1;
    parts[2] = body.toString('base64url');
    expect(() => decrypt(parts.join('.'), key, 'row-1')).toThrow();
    expect(() => decrypt('plain text', key, 'row-1')).toThrow('not an encrypted value');
  });
});

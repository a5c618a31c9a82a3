import { randomBytes } from 'node:crypto';
import { Sealer } from './sealed';

describe('Sealer (AES-256-GCM at rest)', () => {
  const sealer = new Sealer(randomBytes(32));

  it('opens what it sealed, and the stored text does not contain the value', () => {
    const sealed = sealer.seal('ya29.secret-access-token', 'google:123');
    expect(sealed).not.toContain('secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealer.open(sealed, 'google:123')).toBe('ya29.secret-access-token');
    expect(sealer.seal('same', 'x')).not.toBe(sealer.seal('same', 'x')); // a fresh IV each time
  });

  it('refuses another context, another key, and any altered byte', () => {
    const sealed = sealer.seal('token', 'github:1');
    expect(sealer.open(sealed, 'github:2')).toBeNull();
    expect(new Sealer(randomBytes(32)).open(sealed, 'github:1')).toBeNull();
    const [v, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(sealer.open(`${v}.${iv}.${flipped.toString('base64url')}`, 'github:1')).toBeNull();
    expect(sealer.open('plain-text-token', 'github:1')).toBeNull();
    expect(sealer.open('v1..', 'github:1')).toBeNull();
  });

  it('round-trips a signing key and refuses another key, another row and an altered byte', () => {
    const a = sealer.seal('{"d":"secret"}', 'row-1');
    const b = sealer.seal('{"d":"secret"}', 'row-1');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('secret');
    expect(sealer.open(a, 'row-1')).toBe('{"d":"secret"}');
    expect(new Sealer(randomBytes(32)).open(a, 'row-1')).toBeNull();
    expect(sealer.open(a, 'row-2')).toBeNull();
    const parts = a.split('.');
    const body = Buffer.from(parts[2], 'base64url');
    body[0] ^= 1;
    parts[2] = body.toString('base64url');
    expect(sealer.open(parts.join('.'), 'row-1')).toBeNull();
    expect(sealer.open('plain text', 'row-1')).toBeNull();
  });

  it('seals with the first key and opens with any of them (a rotated secret: the previous keys follow it)', () => {
    const [current, previous] = [randomBytes(32), randomBytes(32)];
    const old = new Sealer(previous).seal('ya29.sealed-before-rotation', 'row-1');
    const rotated = new Sealer([current, previous]);
    expect(rotated.open(old, 'row-1')).toBe('ya29.sealed-before-rotation');
    expect(rotated.open(old, 'row-2')).toBeNull();
    expect(new Sealer(current).open(old, 'row-1')).toBeNull();
    const fresh = rotated.seal('new-value', 'row-1');
    expect(new Sealer(current).open(fresh, 'row-1')).toBe('new-value');
    expect(new Sealer(previous).open(fresh, 'row-1')).toBeNull();
    expect(() => new Sealer([])).toThrow('AES-256-GCM needs a 32-byte key');
    expect(() => new Sealer([current, randomBytes(16)])).toThrow('AES-256-GCM needs a 32-byte key');
  });
});

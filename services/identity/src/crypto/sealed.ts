import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** The command that seals every stored value again under the current secret (docs/security.md, rotation). */
export const RESEAL_COMMAND = 'npm run cli -- secrets:reseal';

/**
 * The log line for a sealed value no configured secret opens: what it is, and what the operator does about it.
 * Every place that reads a sealed value logs this when it fails to open.
 */
export const unreadableSealed = (what: string): string =>
  `${what} does not open with AUTH_SECRET or AUTH_SECRET_PREVIOUS: it was sealed under a secret no longer ` +
  `configured. Put that secret back in AUTH_SECRET_PREVIOUS and run \`${RESEAL_COMMAND}\` before dropping it`;

/** What `Sealer.reseal` found: already under the current key, sealed again (the new text), or opened by no key. */
export type Resealed = { state: 'current' } | { state: 'resealed'; sealed: string } | { state: 'unreadable' };

/**
 * AES-256-GCM for values kept at rest (provider tokens, signing keys): `v1.<iv>.<ciphertext+tag>` in base64url.
 * The associated data binds a value to its row, so a sealed token copied into another row does not open there.
 * Given several keys (a rotated secret, docs/security.md), the first seals and each opens: a value sealed before
 * the rotation stays readable while its secret is listed in AUTH_SECRET_PREVIOUS. It is not sealed again on read;
 * `secrets:reseal` does that for every stored value (`reseal`).
 */
export class Sealer {
  private readonly keys: readonly Buffer[];

  constructor(keys: Buffer | readonly Buffer[]) {
    this.keys = Buffer.isBuffer(keys) ? [keys] : keys;
    if (this.keys.length === 0 || this.keys.some((key) => key.length !== 32))
      throw new Error('AES-256-GCM needs a 32-byte key');
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plain value, or null when the value was not sealed by one of these keys for this context (or was altered). */
  open(sealed: string, context: string): string | null {
    const parts = parse(sealed);
    if (!parts) return null;
    for (const key of this.keys) {
      const plain = openWith(key, parts.iv, parts.body, context);
      if (plain !== null) return plain;
    }
    return null;
  }

  /**
   * After a rotation: a value the current key opens is left as it is; one only a previous key opens is sealed again
   * under the current key; one no key opens is reported.
   */
  reseal(sealed: string, context: string): Resealed {
    const parts = parse(sealed);
    if (!parts) return { state: 'unreadable' };
    if (openWith(this.keys[0], parts.iv, parts.body, context) !== null) return { state: 'current' };
    const plain = this.open(sealed, context);
    return plain === null ? { state: 'unreadable' } : { state: 'resealed', sealed: this.seal(plain, context) };
  }

  sealOrNull(plain: string | null | undefined, context: string): string | null {
    return plain ? this.seal(plain, context) : null;
  }
}

/** The IV and the ciphertext with its tag, or null for text that is not a sealed value of this version. */
function parse(sealed: string): { iv: Buffer; body: Buffer } | null {
  const [version, ivText, bodyText] = sealed.split('.');
  if (version !== VERSION || !ivText || !bodyText) return null;
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  return iv.length === 12 && body.length >= 16 ? { iv, body } : null;
}

/** GCM's tag check fails for another key, another context or any altered byte. */
function openWith(key: Buffer, iv: Buffer, body: Buffer, context: string): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

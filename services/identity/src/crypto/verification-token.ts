import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { randomString } from './random';

/** What a verification link carries (spec §9: HS256, 3600 s by default). */
export interface VerificationClaims {
  /** The address being verified, or for a change of email the current (old) address. */
  email: string;
  /** Change of email: the address the account moves to once confirmed. */
  updateTo?: string;
  /** Token id; recorded when used so each link works once. */
  jti: string;
}

export type VerifyResult =
  | { ok: true; claims: VerificationClaims }
  | { ok: false; error: 'token_expired' | 'invalid_token' };

/**
 * HS256 only: `alg: none`, another algorithm or an edited payload are invalid_token. Given several keys (a rotated
 * secret, docs/security.md), the first signs and each verifies, so a link mailed before the rotation still works.
 */
export class VerificationTokens {
  constructor(
    private readonly keys: readonly Uint8Array[],
    private readonly now: () => number,
  ) {
    if (keys.length === 0) throw new Error('VerificationTokens needs a key');
  }

  async sign(email: string, expiresInSec: number, updateTo?: string): Promise<{ token: string; jti: string }> {
    const jti = randomString(24);
    const iat = Math.floor(this.now() / 1000);
    const token = await new SignJWT(updateTo ? { email, updateTo } : { email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresInSec)
      .setJti(jti)
      .sign(this.keys[0]);
    return { token, jti };
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const payload = await this.verified(token);
      if (typeof payload.email !== 'string' || typeof payload.jti !== 'string')
        return { ok: false, error: 'invalid_token' };
      if (payload.updateTo !== undefined && typeof payload.updateTo !== 'string')
        return { ok: false, error: 'invalid_token' };
      return {
        ok: true,
        claims: { email: payload.email, updateTo: payload.updateTo as string | undefined, jti: payload.jti },
      };
    } catch (error) {
      return { ok: false, error: error instanceof errors.JWTExpired ? 'token_expired' : 'invalid_token' };
    }
  }

  /**
   * The payload under the first key whose signature matches; jose checks the signature before the claims, so an
   * expired link of an earlier key is reported expired rather than invalid.
   */
  private async verified(token: string): Promise<JWTPayload> {
    const options = { algorithms: ['HS256'], currentDate: new Date(this.now()), requiredClaims: ['exp', 'jti'] };
    for (let i = 0; ; i++) {
      try {
        return (await jwtVerify(token, this.keys[i], options)).payload;
      } catch (error) {
        if (!(error instanceof errors.JWSSignatureVerificationFailed) || i === this.keys.length - 1) throw error;
      }
    }
  }
}

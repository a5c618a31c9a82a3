import { errors, jwtVerify, SignJWT } from 'jose';
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

/** HS256 only: `alg: none`, another algorithm or an edited payload are invalid_token. */
export class VerificationTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => number,
  ) {}

  async sign(email: string, expiresInSec: number, updateTo?: string): Promise<{ token: string; jti: string }> {
    const jti = randomString(24);
    const iat = Math.floor(this.now() / 1000);
    const token = await new SignJWT(updateTo ? { email, updateTo } : { email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresInSec)
      .setJti(jti)
      .sign(this.key);
    return { token, jti };
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.now()),
        requiredClaims: ['exp', 'jti'],
      });
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
}

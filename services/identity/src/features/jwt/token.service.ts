import { type JWTPayload, type JWTVerifyGetKey, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config';
import { randomString } from '../../crypto/random';
import type { Clock } from '../../shared/clock';
import type { SessionWithUser } from '../../shared/views';
import type { MemberRoleLookup } from './deps';
import type { SigningKeys } from './signing-keys';

/** What a `/token` JWT carries besides the registered claims (iss, aud, sub = user id, exp, iat, jti). */
export interface SessionClaims extends JWTPayload {
  sub: string;
  /** The session id: introspection checks it against the live session. */
  sid: string;
  email: string;
  role: string;
  activeOrganizationId: string | null;
  /** The user's role in the active organization (null when none is active). */
  activeOrganizationRole: string | null;
  impersonatedBy: string | null;
  exp: number;
  iat: number;
}

const ALGORITHMS = ['EdDSA', 'ES256', 'RS256'];

/**
 * Short-lived signed session tokens (better-auth's jwt plugin): an internal service verifies them with
 * the public keys of `/jwks` and no call to this service. They are not revocable offline: they live
 * `jwt.expiresInSec` (15 min) at most, never past the session's own expiry; `/introspect` checks the session.
 */
export class SessionTokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly memberRole: MemberRoleLookup,
  ) {}

  get issuer(): string {
    return this.config.publicUrl;
  }

  get audience(): string {
    return this.config.jwt.audience ?? this.config.publicUrl;
  }

  async issue({ session, user }: SessionWithUser): Promise<string> {
    const key = await this.keys.signingKey();
    const iat = Math.floor(this.clock.now() / 1000);
    const exp = Math.min(iat + this.config.jwt.expiresInSec, Math.floor(Date.parse(session.expiresAt) / 1000));
    const organizationId = session.activeOrganizationId;
    const claims = {
      sid: session.id,
      email: user.email,
      role: user.role,
      activeOrganizationId: organizationId,
      activeOrganizationRole: organizationId ? await this.memberRole(organizationId, user) : null,
      impersonatedBy: session.impersonatedBy,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomString(24))
      .sign(key.privateKey);
  }

  /** The claims of a token this service signed and that has not expired; null for anything else. */
  async verify(token: string): Promise<SessionClaims | null> {
    const getKey: JWTVerifyGetKey = async (header) => {
      const key = header.kid ? await this.keys.find(header.kid) : undefined;
      if (!key || key.alg !== header.alg) throw new Error('unknown key');
      return key.publicKey;
    };
    try {
      const { payload } = await jwtVerify(token, getKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ALGORITHMS,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'sid', 'exp', 'iat'],
      });
      return typeof payload.sid === 'string' ? (payload as SessionClaims) : null;
    } catch {
      return null;
    }
  }
}

import type { Static } from 'typebox';
import type { SessionTokens } from '../jwt';
import type { SessionService } from '../session';
import type { IntrospectionSchema } from './schemas';

/** RFC 7662 §2.2 answer (the response schema's type); `active: false` alone for anything invalid, expired or revoked. */
export type Introspection = Static<typeof IntrospectionSchema>;

const INACTIVE: Introspection = { active: false };
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** A compact JWS: three base64url parts. Session tokens are 32 alphanumeric characters: never two dots. */
const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * Session introspection for internal services. A session token or a `/token` JWT is looked up on the
 * session service's fast path (Redis, then PostgreSQL; never the cookie cache), so a revocation, which deletes
 * the Redis entry first, shows at once. For a JWT the signature, issuer, audience and expiry are checked, then
 * its `sid` must name a live session of its `sub`. The session's current user role, active organization and
 * impersonator are answered (they may have changed since a JWT was signed).
 */
export class IntrospectionService {
  constructor(
    private readonly sessions: SessionService,
    private readonly tokens: SessionTokens,
  ) {}

  async introspect(token: string): Promise<Introspection> {
    return looksLikeJwt(token) ? this.jwt(token) : this.sessionToken(token);
  }

  introspectMany(tokens: string[]): Promise<Introspection[]> {
    return Promise.all(tokens.map((t) => this.introspect(t)));
  }

  private async sessionToken(token: string): Promise<Introspection> {
    const { current } = await this.sessions.resolve(token, { source: 'cache', refresh: false });
    if (!current) return INACTIVE;
    const { session, user } = current;
    return {
      active: true,
      token_type: 'session_token',
      sub: user.id,
      sid: session.id,
      exp: seconds(session.expiresAt),
      iat: seconds(session.createdAt),
      email: user.email,
      role: user.role,
      activeOrganizationId: session.activeOrganizationId,
      impersonatedBy: session.impersonatedBy,
    };
  }

  private async jwt(token: string): Promise<Introspection> {
    const claims = await this.tokens.verify(token);
    if (!claims) return INACTIVE;
    const { current } = await this.sessions.resolveById(claims.sid, { source: 'cache', refresh: false });
    if (!current || current.user.id !== claims.sub) return INACTIVE;
    const { session, user } = current;
    return {
      active: true,
      token_type: 'jwt',
      sub: claims.sub,
      sid: claims.sid,
      exp: claims.exp,
      iat: claims.iat,
      iss: claims.iss,
      aud: this.tokens.audience,
      jti: claims.jti,
      email: user.email,
      role: user.role,
      activeOrganizationId: session.activeOrganizationId,
      impersonatedBy: session.impersonatedBy,
    };
  }
}

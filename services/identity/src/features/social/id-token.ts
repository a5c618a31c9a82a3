import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import { FOREIGN_CLOCK_SKEW_SEC } from '../../shared/clock';
import type { Provider } from './providers/registry';

/** Signature algorithms accepted for provider id tokens: asymmetric only (never none, never HS*). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const MICROSOFT_ISSUER = /^https:\/\/login\.microsoftonline\.com\/[0-9a-f-]{36}\/v2\.0$/;

/**
 * Id-token sign-in (docs/SPEC.md §5: the id token must verify): the token must be signed by one of the
 * provider's published keys (JWKS), be issued by it, for one of our client ids, unexpired, recent (issued at most
 * `maxAgeSec` ago and not in the future beyond a small skew, so a captured token cannot be replayed for long), and
 * carry the nonce the app sent (when either has one).
 */
export class IdTokenVerifier {
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly now: () => number,
    private readonly maxAgeSec: number,
  ) {}

  /** The verified claims, or null when the token does not verify. */
  async verify(p: Provider, token: string, nonce: string | undefined): Promise<JWTPayload | null> {
    const jwks = this.keys(p);
    try {
      const { payload } = await jwtVerify(token, jwks, {
        algorithms: ALGORITHMS,
        audience: p.audiences,
        issuer: this.multiTenant(p) ? undefined : p.def.issuer,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'exp', 'iss', 'iat'],
      });
      if (!this.recent(payload.iat!)) return null;
      if (this.multiTenant(p) && !(typeof payload.iss === 'string' && MICROSOFT_ISSUER.test(payload.iss))) return null;
      if ((nonce !== undefined || payload.nonce !== undefined) && payload.nonce !== nonce) return null;
      return payload;
    } catch {
      return null;
    }
  }

  private recent(iat: number): boolean {
    const age = this.now() / 1000 - iat;
    return age <= this.maxAgeSec && age >= -FOREIGN_CLOCK_SKEW_SEC;
  }

  private keys(p: Provider) {
    const uri = p.def.jwksUri!;
    let set = this.keySets.get(uri);
    if (!set) {
      set = createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
      this.keySets.set(uri, set);
    }
    return set;
  }

  /** Entra "common"-style tenants: the issuer names the user's own tenant (checked by pattern). */
  private multiTenant(p: Provider): boolean {
    return p.id === 'microsoft' && /\/(common|organizations|consumers)\/v2\.0$/.test(p.def.issuer ?? '');
  }
}

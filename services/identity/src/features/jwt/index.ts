import { type ResealCount, type ResealOptions, resealColumns } from '../../crypto/reseal';
import type { FeatureRoutes } from '../../http/web';
import type { JwtDeps } from './deps';
import { KeyRepository } from './repository';
import { SigningKeys } from './signing-keys';
import { tokenRoutes } from './token.routes';
import { SessionTokens } from './token.service';

export type { JwtDeps, MemberRoleLookup } from './deps';
export { type KeyEvents, redisKeyEvents } from './key-events';
export type { PublicJwk, SigningAlg, SigningKey, SigningKeys } from './signing-keys';
export type { SessionClaims, SessionTokens } from './token.service';

/**
 * Signed session tokens (better-auth's jwt plugin): the signing keys (created, rotated and published as JWKS) and
 * the token issuer/verifier that introspection uses. Its route table:
 *
 *   token.routes   token · jwks
 */
export interface JwtFeature extends FeatureRoutes {
  keys: SigningKeys;
  tokens: SessionTokens;
  /** Seals the signing keys' private keys again under the current AUTH_SECRET (`secrets:reseal`). */
  reseal(options: ResealOptions): Promise<ResealCount>;
}

export function createJwtFeature(deps: JwtDeps): JwtFeature {
  const keys = new SigningKeys(
    new KeyRepository(deps.sql),
    deps.config.jwt,
    deps.sealer,
    deps.clock,
    deps.events,
    deps.audit,
    deps.warn,
    deps.companionAlgs,
  );
  const tokens = new SessionTokens(keys, deps.config, deps.clock, deps.memberRole);
  return {
    keys,
    tokens,
    reseal: (options) =>
      resealColumns(
        deps.sql,
        deps.sealer,
        // The private key is sealed bound to its key id (signing-keys.ts).
        { label: 'signing keys', table: 'jwks', key: 'id', columns: [{ name: 'private_key', context: (id) => id }] },
        options,
      ),
    async routes(app, web) {
      await app.register(tokenRoutes, { ...web, keys, tokens });
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { deriveKeys } from '../../crypto/keys';
import { type ResealCount, type ResealOptions, resealColumns } from '../../crypto/reseal';
import { Sealer } from '../../crypto/sealed';
import type { FeatureRoutes } from '../../http/web';
import { accountsRoutes } from './accounts.routes';
import { CallbackService } from './callback.service';
import type { SocialFeatureDeps } from './deps';
import { IdTokenVerifier } from './id-token';
import { IdentifyService } from './identify.service';
import type { SocialParts } from './parts';
import { ProviderRegistry } from './providers/registry';
import { SocialRepository } from './repository';
import { signInRoutes } from './sign-in.routes';
import { SocialService } from './social.service';
import { OAuthStates } from './state';
import { AccountTokensService } from './tokens.service';
import { SEALED_TOKENS, TokenVault } from './vault';
import type { SocialServices, SocialWeb } from './web';

export type { SocialFeatureDeps } from './deps';
export type { ProviderRegistry } from './providers/registry';
export type { SocialServices, SocialWeb } from './web';

/**
 * The social feature's route table (spec §7):
 *
 *   sign-in.routes   sign-in/social · callback/:providerId (GET, POST) · link-social
 *   accounts.routes  list-accounts · unlink-account · get-access-token · refresh-token · account-info
 */
export type SocialFeature = SocialServices &
  FeatureRoutes & {
    /** Seals the stored provider tokens again under the current AUTH_SECRET (`secrets:reseal`). */
    reseal(options: ResealOptions): Promise<ResealCount>;
  };

export function createSocialFeature(base: SocialFeatureDeps): SocialFeature {
  const { config, clock } = base;
  const sealer = new Sealer(deriveKeys(config, 'provider-tokens'));
  const d: SocialParts = {
    ...base,
    providers: new ProviderRegistry(config, clock.now),
    verifier: new IdTokenVerifier(clock.now, config.social.idTokenMaxAgeSec),
    states: new OAuthStates(base.store, config.social.stateTtlSec, clock.now),
    repo: new SocialRepository(base.sql),
    vault: new TokenVault(sealer, base.warn),
  };
  const identify = new IdentifyService(d);
  const services: SocialServices = {
    providers: d.providers,
    social: new SocialService(d, identify),
    callback: new CallbackService(d, identify),
    tokens: new AccountTokensService(d),
  };
  return {
    ...services,
    reseal: (options) => resealColumns(base.sql, sealer, SEALED_TOKENS, options),
    routes: (app, web) => registerRoutes(app, { ...web, social: services }),
  };
}

async function registerRoutes(app: FastifyInstance, ctx: SocialWeb): Promise<void> {
  // Form bodies only here, for the form_post callback; every other route still takes JSON only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_r, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
      done(null, fields);
    },
  );
  await app.register(signInRoutes, ctx);
  await app.register(accountsRoutes, ctx);
}

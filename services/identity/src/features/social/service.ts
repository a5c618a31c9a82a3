import type { Config } from '../../config';
import { deriveKey } from '../../crypto/keys';
import { Sealer } from '../../crypto/sealed';
import type { Sql } from '../../shared/sql';
import type { KeyValueStore } from '../../store';
import { CallbackService } from './callback.service';
import type { SocialDeps } from './deps';
import { IdTokenVerifier } from './id-token';
import { IdentifyService } from './identify.service';
import { ProviderRegistry } from './providers/registry';
import { SocialRepository } from './repository';
import { SocialService } from './social.service';
import { OAuthStates } from './state';
import { AccountTokensService } from './tokens.service';
import { TokenVault } from './vault';

/** The social feature's services, wired once (context.ts). */
export interface SocialFeature {
  providers: ProviderRegistry;
  social: SocialService;
  callback: CallbackService;
  tokens: AccountTokensService;
}

export function createSocialFeature(
  base: { config: Config; sql: Sql; store: KeyValueStore } & Pick<
    SocialDeps,
    'clock' | 'accounts' | 'sessions' | 'banCheck'
  >,
): SocialFeature {
  const { config, clock } = base;
  const d: SocialDeps = {
    ...base,
    providers: new ProviderRegistry(config, clock.now),
    verifier: new IdTokenVerifier(clock.now, config.social.idTokenMaxAgeSec),
    states: new OAuthStates(base.store, config.social.stateTtlSec, clock.now),
    repo: new SocialRepository(base.sql),
    vault: new TokenVault(new Sealer(deriveKey(config.secret, 'provider-tokens'))),
  };
  const identify = new IdentifyService(d);
  return {
    providers: d.providers,
    social: new SocialService(d, identify),
    callback: new CallbackService(d, identify),
    tokens: new AccountTokensService(d),
  };
}

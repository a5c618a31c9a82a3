import type { SocialFeatureDeps } from './deps';
import type { IdTokenVerifier } from './id-token';
import type { ProviderRegistry } from './providers/registry';
import type { SocialRepository } from './repository';
import type { OAuthStates } from './state';
import type { TokenVault } from './vault';

/**
 * The social feature's own parts, built once in index.ts, beside what it was given; each service takes the few it
 * uses (a Pick of this).
 */
export interface SocialParts extends Omit<SocialFeatureDeps, 'store'> {
  providers: ProviderRegistry;
  verifier: IdTokenVerifier;
  states: OAuthStates;
  repo: SocialRepository;
  vault: TokenVault;
}

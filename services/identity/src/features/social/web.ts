import type { Web } from '../../http/web';
import type { CallbackService } from './callback.service';
import type { ProviderRegistry } from './providers/registry';
import type { SocialService } from './social.service';
import type { AccountTokensService } from './tokens.service';

/** The social feature's services. */
export interface SocialServices {
  providers: ProviderRegistry;
  social: SocialService;
  callback: CallbackService;
  tokens: AccountTokensService;
}

/** What the social feature's route tables get: the shared `Web` and the feature's own services. */
export interface SocialWeb extends Web {
  social: SocialServices;
}

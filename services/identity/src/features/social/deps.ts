import type { Config } from '../../config';
import type { UserView } from '../../shared/views';
import type { AccountService } from '../account/account.service';
import type { Clock, SessionService } from '../session/session.service';
import type { IdTokenVerifier } from './id-token';
import type { ProviderRegistry } from './providers/registry';
import type { SocialRepository } from './repository';
import type { OAuthStates } from './state';
import type { TokenVault } from './vault';

/** What the social feature's services share (wired in context.ts). */
export interface SocialDeps {
  config: Config;
  clock: Clock;
  providers: ProviderRegistry;
  verifier: IdTokenVerifier;
  states: OAuthStates;
  repo: SocialRepository;
  vault: TokenVault;
  accounts: AccountService;
  sessions: SessionService;
  /**
   * Named hook for the admin feature (spec §8): refuses a banned user (throws BANNED_USER) or answers the user
   * as it now is (a lapsed ban lifted). The callback turns the refusal into a redirect to the error page.
   */
  banCheck: ((user: UserView) => Promise<UserView>) | null;
}

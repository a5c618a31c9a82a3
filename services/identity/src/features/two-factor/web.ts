import type { Web } from '../../http/web';
import type { SignInChallenges } from './sign-in-challenge.service';
import type { TwoFactorService } from './two-factor.service';

/** What the two-factor feature's route tables get: the shared `Web` and the feature's own services. */
export interface TwoFactorWeb extends Web {
  twoFactor: TwoFactorService;
  challenges: SignInChallenges;
}

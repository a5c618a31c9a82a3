import type { Web } from '../../http/web';
import type { AccountService } from './account.service';
import type { DeletionService } from './deletion.service';
import type { EmailService } from './email.service';
import type { PasswordService } from './password.service';
import type { SignInThrottle } from './sign-in-throttle';

/** What the account feature's route tables get: the shared `Web` and the feature's own services. */
export interface AccountWeb extends Web {
  accounts: AccountService;
  passwords: PasswordService;
  emails: EmailService;
  deletion: DeletionService;
  signInThrottle: SignInThrottle;
}

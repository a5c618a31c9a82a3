import type { AccountService } from '../account';
import type { TwoFactorService } from './two-factor.service';

/** The second factor asked by the password sign-in, after a correct password (docs/two-factor.md). */
export function installSecondFactor(accounts: AccountService, twoFactor: TwoFactorService): void {
  accounts.hooks.secondFactor = twoFactor.gate;
}

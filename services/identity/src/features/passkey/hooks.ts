import type { TwoFactorService } from '../two-factor';
import type { PasskeyService } from './passkey.service';

/** An operator's reset of the second factor removes the user's passkeys too, in its transaction (docs/two-factor.md). */
export function installPasskeyReset(twoFactor: TwoFactorService, passkeys: PasskeyService): void {
  twoFactor.hooks.resettable.push({ name: 'passkeys', removeAll: (userId, tx) => passkeys.removeAll(userId, tx) });
}

import type { UserView } from './views';

/**
 * Whether the user holds a second factor, as the policies count them (docs/two-factor.md "Policies"): a confirmed
 * authenticator app (TOTP), or a passkey (a passkey sign-in is two factors in one: the device and its PIN or
 * biometrics). Read from the user row the session lookup loads anyway: no statement of its own.
 */
export function hasSecondFactor(user: Pick<UserView, 'twoFactorEnabled' | 'passkeyCount'>): boolean {
  return user.twoFactorEnabled || user.passkeyCount > 0;
}

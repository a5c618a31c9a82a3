import type { UserView } from './views';

/**
 * Whether the user holds a second factor the policies count (docs/two-factor.md "Policies"): the admin policy
 * (`TWO_FACTOR_REQUIRED_FOR_ADMINS`, admin/access.ts) and an organization's `requireTwoFactor` (the organization
 * feature's membership checks, set-active, accepting an invitation, and the sessions cleared when a factor goes)
 * ask this function and nothing else, so a new kind of factor is counted everywhere by changing it alone.
 * A confirmed TOTP enrolment (`twoFactorEnabled`), or a passkey (`passkeyCount`: a passkey sign-in is two factors in
 * one, the device and its screen lock), both on the user row every caller has already read.
 */
export function hasSecondFactor(user: Pick<UserView, 'twoFactorEnabled' | 'passkeyCount'>): boolean {
  return user.twoFactorEnabled || user.passkeyCount > 0;
}

import type { UserView } from '../../shared/views';
import type { SecondFactorGate } from '../account';
import type { SocialDeps } from './deps';
import type { Provider } from './providers/registry';

/**
 * The second factor after a provider's sign-in (docs/two-factor.md): asked of a user who has one, unless the
 * provider's `twoFactor` setting is false. Null: nothing to ask, sign in now. A provider's sign-in remembers the
 * user (rememberMe), as it always does.
 */
export function askSecondFactor(
  d: Pick<SocialDeps, 'accounts'>,
  p: Provider,
  user: UserView,
  trustedDevice: string | null,
): ReturnType<SecondFactorGate> | Promise<null> {
  const gate = d.accounts.hooks.secondFactor;
  if (!user.twoFactorEnabled || !gate || p.settings.twoFactor === false) return Promise.resolve(null);
  return gate(user, { rememberMe: true, trustedDevice });
}

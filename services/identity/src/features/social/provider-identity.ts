import type { ProvenIdentity } from '../../shared/sign-in';
import type { UserView } from '../../shared/views';
import type { Provider } from './providers/registry';

/**
 * A provider's answer as the sign-in seam takes it: the user, remembered (a provider's sign-in always is), the
 * second factor asked of a user who has one unless the provider's `twoFactor` setting is false
 * (docs/two-factor.md).
 */
export function providerIdentity(p: Provider, user: UserView): ProvenIdentity {
  return {
    user,
    method: `social:${p.id}`,
    rememberMe: true,
    secondFactor: p.settings.twoFactor === false ? 'skip' : 'ask',
  };
}

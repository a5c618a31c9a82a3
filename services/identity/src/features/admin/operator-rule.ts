import type { UserView } from '../../shared/views';
import type { OperatorLookup } from '../organization';
import type { AdminAccess } from './access';

/**
 * The organization feature's operator rule (organization/membership.ts), which wiring.ts gives it when both
 * features are on: an invitation an operator sent stays valid while its inviter still holds the admin
 * `organization: manage` permission, as a member's does while they are one.
 */
export function operatorRule(
  access: AdminAccess,
  accounts: { getUser(id: string): Promise<UserView | null> },
): OperatorLookup {
  return async (userId) => {
    const user = await accounts.getUser(userId);
    if (!user || !access.allows(user, { organization: ['manage'] })) return null;
    return { id: user.id, name: user.name, email: user.email, image: user.image };
  };
}

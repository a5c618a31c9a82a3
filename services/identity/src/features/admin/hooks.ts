import type { AccountService } from '../account';
import type { OrganizationFeature } from '../organization';
import type { AdminAccess } from './access';

/**
 * The organization feature's operator rule (organization/access.ts): an invitation an operator sent stays valid
 * while its inviter still holds the admin `organization: manage` permission, as a member's does while they are one.
 */
export function installOperatorRule(org: OrganizationFeature, access: AdminAccess, accounts: AccountService): void {
  org.access.operatorLookup = async (userId) => {
    const user = await accounts.getUser(userId);
    if (!user || !access.allows(user, { organization: ['manage'] })) return null;
    return { id: user.id, name: user.name, email: user.email, image: user.image };
  };
}

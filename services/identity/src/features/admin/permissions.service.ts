import { hasAnyPermission, type Permissions } from '../../access';
import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import type { SessionWithUser } from '../../shared/views';
import type { OrganizationListQuery, OrganizationSummary } from '../organization';
import type { AdminParts } from './parts';
import type { PermissionCheck } from './schemas';

/** What the permission checks use. */
export type PermissionsDeps = Pick<AdminParts, 'access' | 'accounts' | 'config' | 'organizations'>;

/** has-permission (spec §5, §7) and the console's organization list. */
export class AdminPermissionsService {
  constructor(private readonly d: PermissionsDeps) {}

  /**
   * With a session: the session's user (an impersonation session holds no admin permission). Without one (a
   * server holding the service credential): the given role, else the user found by id.
   */
  /** spec §8: "invalid permission check. no permission(s) were passed." comes before any other answer. */
  requested(input: PermissionCheck): Permissions {
    const permissions = input.permissions ?? input.permission;
    return hasAnyPermission(permissions) ? permissions : fail('INVALID_PERMISSION_CHECK');
  }

  async check(auth: SessionWithUser | null, input: PermissionCheck): Promise<{ success: boolean; error: null }> {
    const permissions = this.requested(input);
    const { access, accounts } = this.d;
    if (auth) return { success: access.can(auth, permissions), error: null };
    if (!input.userId && !input.role) return fail('USER_ID_OR_ROLE_REQUIRED');
    const user = input.role
      ? { id: input.userId ?? '', role: input.role }
      : (isId(input.userId!) && (await accounts.getUser(input.userId!))) || fail('ADMIN_USER_NOT_FOUND');
    return { success: access.allows(user, permissions), error: null };
  }

  /** admin/list-roles: the configured roles, for pickers (user:list, like reading the users they apply to). */
  listRoles(auth: SessionWithUser) {
    const { access, config, organizations } = this.d;
    access.demand(auth, { user: ['list'] }, 'NOT_ALLOWED_TO_LIST_USERS');
    const roles = Object.entries(access.roles).map(([name, role]) => ({
      name,
      admin: config.admin.adminRoles.includes(name),
      permissions: grantsOf(role.grants),
    }));
    const organizationRoles = organizations
      ? Object.entries(organizations.access.roles).map(([name, role]) => ({
          name,
          creator: name === organizations.access.creatorRole,
          permissions: grantsOf(role.grants),
        }))
      : null;
    return { roles, defaultRole: config.admin.defaultRole, organizationRoles };
  }

  async listOrganizations(
    auth: SessionWithUser,
    limit: number,
    offset: number,
    query: OrganizationListQuery = {},
  ): Promise<{ organizations: OrganizationSummary[]; total: number; limit: number; offset: number }> {
    this.d.access.demand(auth, { organization: ['list'] }, 'NOT_ALLOWED_TO_LIST_ORGANIZATIONS');
    const page = (await this.d.organizations?.reads.listAllForOperators(limit, offset, query)) ?? {
      organizations: [],
      total: 0,
    };
    return { ...page, limit, offset };
  }
}

/** A role's grants as a plain, mutable copy (the wire shape). */
const grantsOf = (grants: Permissions): Record<string, string[]> =>
  Object.fromEntries(Object.entries(grants).map(([resource, actions]) => [resource, [...actions]]));

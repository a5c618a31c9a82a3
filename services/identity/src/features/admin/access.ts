import {
  ADMIN_DEFAULT_ROLES,
  ADMIN_STATEMENTS,
  authorizeRoles,
  buildRoles,
  type Permissions,
  type Role,
  roleNames,
} from '../../access';
import type { Config } from '../../config';
import { type ErrorCode, fail } from '../../errors';
import { hasSecondFactor } from '../../shared/second-factor';
import type { SessionWithUser, UserView } from '../../shared/views';

type AdminConfig = Config['admin'];

/**
 * spec §6 "Admin roles" as the admin feature applies them: admin and user by default, custom roles from the
 * configuration, a role text may hold several comma-separated roles (any one that grants is enough), and the
 * configured admin user ids always pass. An impersonation session never passes.
 */
export class AdminAccess {
  readonly roles: Record<string, Role>;

  constructor(
    private readonly config: AdminConfig,
    /** TWO_FACTOR_REQUIRED_FOR_ADMINS (docs/two-factor.md "Policies"). */
    private readonly secondFactorRequired = false,
  ) {
    this.roles = buildRoles(ADMIN_STATEMENTS, ADMIN_DEFAULT_ROLES, config.roles, 'admin.roles');
  }

  /** Whether the user (by id and role text) holds every permission asked for. */
  allows(user: Pick<UserView, 'id' | 'role'>, permissions: Permissions): boolean {
    if (user.id && this.config.adminUserIds.includes(user.id)) return true;
    return authorizeRoles(user.role || this.config.defaultRole, this.roles, permissions).success;
  }

  /**
   * The caller may act: a real (not impersonation) session whose user holds the permissions. Under the admin
   * second-factor policy, a caller who holds them but has no second factor is refused with TWO_FACTOR_REQUIRED
   * (rather than a plain no, so a console knows to send them to enrol).
   */
  can(auth: SessionWithUser, permissions: Permissions): boolean {
    if (auth.session.impersonatedBy || !this.allows(auth.user, permissions)) return false;
    if (this.secondFactorRequired && !hasSecondFactor(auth.user)) fail('TWO_FACTOR_REQUIRED');
    return true;
  }

  /** Refuses with the route's own spec §8 message. */
  demand(auth: SessionWithUser, permissions: Permissions, code: ErrorCode): void {
    if (!this.can(auth, permissions)) fail(code);
  }

  /** An admin for impersonation purposes: an admin role in the role text, or a configured admin id. */
  isAdmin(user: Pick<UserView, 'id' | 'role'>): boolean {
    if (this.config.adminUserIds.includes(user.id)) return true;
    return roleNames(user.role || this.config.defaultRole).some((r) => this.config.adminRoles.includes(r));
  }

  /** "admin" or ["admin", "user"] → "admin,user"; every name must be a known role. */
  roleText(role: string | readonly string[]): string {
    const names = roleNames(role);
    if (!names.length || names.some((n) => !Object.hasOwn(this.roles, n))) fail('NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE');
    return names.join(',');
  }
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { impersonationRoutes } from './impersonation.routes';
import { adminOrganizationRoutes } from './organizations.routes';
import { adminPermissionRoutes } from './permissions.routes';
import { adminSessionRoutes } from './sessions.routes';
import { adminUserRoutes } from './users.routes';

/**
 * The admin feature's route table (spec §7 admin calls, under admin/), registered only when `features.admin`
 * is on. Every route needs a session whose user holds the route's permission (spec §6); impersonation
 * sessions hold none, except to stop impersonating.
 *
 * users:         create-user, get-user, update-user, set-role, list-users, remove-user, set-user-password
 * sessions:      list-user-sessions, revoke-user-session, revoke-user-sessions, ban-user, unban-user
 * impersonation: impersonate-user, stop-impersonating
 * permissions:   has-permission, list-organizations
 * organizations: list-user-accounts, list-user-organizations, and as an operator on any organization:
 *                organization/get · create · invite-member · cancel-invitation · update-member-role ·
 *                remove-member · create-team · update-team · remove-team · add-team-member · remove-team-member
 */
export async function adminRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = ctx;
  if (!admin) throw new Error('admin routes registered without the admin feature');
  const withAdmin = { ...ctx, admin };
  await fastify.register(adminUserRoutes, withAdmin);
  await fastify.register(adminSessionRoutes, withAdmin);
  await fastify.register(impersonationRoutes, withAdmin);
  await fastify.register(adminPermissionRoutes, withAdmin);
  await fastify.register(adminOrganizationRoutes, withAdmin);
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { invitationRoutes } from './invitation.routes';
import { memberRoutes } from './member.routes';
import { organizationRoutes } from './organization.routes';
import { requireOrganizationSession } from './session';
import { teamRoutes } from './team.routes';

/**
 * The organization feature's route table under `organization/` (spec §7). Registered by the composition root
 * only when `features.organization` is on.
 *
 *   organization.routes  create · check-slug · update · delete · list · get-full-organization · set-active
 *   member.routes        list-members · get-active-member(-role) · remove-member · update-member-role · leave · has-permission
 *   invitation.routes    invite-member · accept-invitation · reject-invitation ·  cancel-invitation · get-invitation · list-invitations · list-user-invitations
 *   team.routes          create-team · update-team · remove-team · list-teams · list-user-teams · add-team-member ·
 *                        remove-team-member
 */
export async function organizationFeature(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const opts = { ctx, org: ctx.organization, session: requireOrganizationSession(ctx) };
  await app.register(organizationRoutes, opts);
  await app.register(memberRoutes, opts);
  await app.register(invitationRoutes, opts);
  if (ctx.config.organization.teams.enabled) await app.register(teamRoutes, opts);
}

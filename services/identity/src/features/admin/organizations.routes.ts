import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { withSource } from '../../http/audit-source';
import {
  AddMember,
  AddTeamMember,
  CancelInvitation,
  CreateOrganization,
  CreateTeam,
  DeleteOrganization,
  GetOrganization,
  InviteMember,
  ListUserAccounts,
  ListUserOrganizations,
  RemoveMember,
  RemoveTeam,
  RemoveTeamMember,
  UpdateMemberRole,
  UpdateOrganization,
  UpdateTeam,
} from './organizations.schemas';
import type { AdminWeb } from './web';

/** Operators on any organization (organization/access.ts), and a user's accounts and organizations. */
export async function adminOrganizationRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const preHandler = ctx.requireSession;
  const { organizations: orgs, users } = ctx.admin;

  app.get('/admin/list-user-accounts', { schema: ListUserAccounts, preHandler }, async (request) =>
    users.accounts(request.auth, request.query.userId),
  );
  if (!ctx.config.features.organization) return;

  app.get('/admin/list-user-organizations', { schema: ListUserOrganizations, preHandler }, async (request) =>
    orgs.ofUser(request.auth, request.query.userId),
  );
  app.get('/admin/organization/get', { schema: GetOrganization, preHandler }, async (request) =>
    orgs.get(request.auth, request.query.organizationId),
  );
  app.post('/admin/organization/create', { schema: CreateOrganization, preHandler }, async (request) =>
    orgs.create(withSource(request), request.body),
  );
  app.post('/admin/organization/update', { schema: UpdateOrganization, preHandler }, async (request) =>
    orgs.update(withSource(request), request.body),
  );
  app.post('/admin/organization/delete', { schema: DeleteOrganization, preHandler }, async (request) =>
    orgs.delete(withSource(request), request.body.organizationId),
  );
  app.post('/admin/organization/invite-member', { schema: InviteMember, preHandler }, async (request) =>
    orgs.invite(withSource(request), request.body, request.headers['accept-language']),
  );
  app.post('/admin/organization/cancel-invitation', { schema: CancelInvitation, preHandler }, async (request) =>
    orgs.cancelInvitation(withSource(request), request.body.invitationId),
  );
  app.post('/admin/organization/add-member', { schema: AddMember, preHandler }, async (request) =>
    orgs.addMember(withSource(request), request.body),
  );
  app.post('/admin/organization/update-member-role', { schema: UpdateMemberRole, preHandler }, async (request) =>
    orgs.updateMemberRole(withSource(request), request.body),
  );
  app.post('/admin/organization/remove-member', { schema: RemoveMember, preHandler }, async (request) =>
    orgs.removeMember(withSource(request), request.body),
  );
  app.post('/admin/organization/create-team', { schema: CreateTeam, preHandler }, async (request) =>
    orgs.createTeam(withSource(request), request.body),
  );
  app.post('/admin/organization/update-team', { schema: UpdateTeam, preHandler }, async (request) =>
    orgs.updateTeam(withSource(request), request.body),
  );
  app.post('/admin/organization/remove-team', { schema: RemoveTeam, preHandler }, async (request) =>
    orgs.removeTeam(withSource(request), request.body),
  );
  app.post('/admin/organization/add-team-member', { schema: AddTeamMember, preHandler }, async (request) =>
    orgs.addTeamMember(withSource(request), request.body),
  );
  app.post('/admin/organization/remove-team-member', { schema: RemoveTeamMember, preHandler }, async (request) =>
    orgs.removeTeamMember(withSource(request), request.body),
  );
}

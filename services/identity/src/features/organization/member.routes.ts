import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { hasAnyPermission } from '../../access';
import { fail } from '../../errors';
import { withSource } from '../../http/audit-source';
import {
  GetActiveMember,
  GetActiveMemberRole,
  HasPermission,
  LeaveOrganization,
  ListMembers,
  RemoveMember,
  UpdateMemberRole,
} from './member.schemas';
import { reissue } from './reply';
import type { OrganizationWeb } from './web';

export async function memberRoutes(fastify: FastifyInstance, opts: OrganizationWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx, org, session: preHandler } = opts;

  app.get('/list-members', { schema: ListMembers, preHandler }, async (request) =>
    org.reads.listMembers(request.auth, request.query),
  );

  app.get('/get-active-member', { schema: GetActiveMember, preHandler }, async (request) =>
    org.reads.activeMember(request.auth),
  );

  app.get('/get-active-member-role', { schema: GetActiveMemberRole, preHandler }, async (request) =>
    org.reads.activeMemberRole(request.auth, request.query),
  );

  app.post('/remove-member', { schema: RemoveMember, preHandler }, async (request, reply) => {
    const { result, session } = await org.members.remove(withSource(request), request.body);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.post('/update-member-role', { schema: UpdateMemberRole, preHandler }, async (request) =>
    org.members.updateRole(withSource(request), request.body),
  );

  app.post('/leave', { schema: LeaveOrganization, preHandler }, async (request, reply) => {
    const { result, session } = await org.members.leave(withSource(request), request.body.organizationId);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.post('/has-permission', { schema: HasPermission, preHandler }, async (request) => {
    const permissions = request.body.permissions ?? request.body.permission;
    if (!hasAnyPermission(permissions)) return fail('INVALID_PERMISSION_CHECK');
    return org.reads.hasPermission(request.auth, request.body.organizationId, permissions);
  });
}

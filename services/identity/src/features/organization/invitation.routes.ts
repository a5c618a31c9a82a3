import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireSession } from '../../http/require-session';
import {
  AcceptInvitation,
  CancelInvitation,
  GetInvitation,
  InviteMember,
  ListInvitations,
  ListUserInvitations,
  RejectInvitation,
} from './invitation.schemas';
import { reissue, requireAuthenticated } from './reply';
import type { OrganizationFeature } from './service';

export async function invitationRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; org: OrganizationFeature }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx, org } = opts;
  const preHandler = requireSession(ctx);
  const authenticated = requireAuthenticated(ctx);

  app.post('/invite-member', { schema: InviteMember, preHandler }, async (request) =>
    org.invitations.invite(request.auth, request.body, request.headers['accept-language']),
  );

  app.post('/accept-invitation', { schema: AcceptInvitation, preHandler }, async (request, reply) => {
    const { result, session } = await org.accept.accept(request.auth, request.body.invitationId);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.post('/reject-invitation', { schema: RejectInvitation, preHandler }, async (request) =>
    org.invitations.reject(request.auth, request.body.invitationId),
  );

  app.post('/cancel-invitation', { schema: CancelInvitation, preHandler }, async (request) =>
    org.invitations.cancel(request.auth, request.body.invitationId),
  );

  app.get('/get-invitation', { schema: GetInvitation, preHandler: authenticated }, async (request) =>
    org.invitations.get(request.auth, request.query.id),
  );

  app.get('/list-invitations', { schema: ListInvitations, preHandler: authenticated }, async (request) =>
    org.invitations.list(request.auth, request.query.organizationId),
  );

  app.get('/list-user-invitations', { schema: ListUserInvitations, preHandler: authenticated }, async (request) =>
    org.invitations.listForUser(request.auth),
  );
}

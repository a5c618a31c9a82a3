import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { withSource } from '../../http/audit-source';
import {
  AcceptInvitation,
  CancelInvitation,
  GetInvitation,
  InviteMember,
  ListInvitations,
  ListUserInvitations,
  RejectInvitation,
} from './invitation.schemas';
import { reissue } from './reply';
import type { OrganizationWeb } from './web';

export async function invitationRoutes(fastify: FastifyInstance, opts: OrganizationWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx, org, session: preHandler } = opts;

  // Every invitation may send a mail: limited per address like the other mail routes, less tightly.
  app.post(
    '/invite-member',
    { schema: InviteMember, preHandler, config: { policy: { rateLimit: { windowSec: 60, max: 30 } } } },
    async (request) => org.invitations.invite(withSource(request), request.body, request.headers['accept-language']),
  );

  app.post('/accept-invitation', { schema: AcceptInvitation, preHandler }, async (request, reply) => {
    const { result, session } = await org.accept.accept(withSource(request), request.body.invitationId);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.post('/reject-invitation', { schema: RejectInvitation, preHandler }, async (request) =>
    org.invitations.reject(withSource(request), request.body.invitationId),
  );

  app.post('/cancel-invitation', { schema: CancelInvitation, preHandler }, async (request) =>
    org.invitations.cancel(withSource(request), request.body.invitationId),
  );

  app.get('/get-invitation', { schema: GetInvitation, preHandler }, async (request) =>
    org.invitations.get(request.auth, request.query.id),
  );

  app.get('/list-invitations', { schema: ListInvitations, preHandler }, async (request) =>
    org.invitations.list(request.auth, request.query.organizationId),
  );

  app.get('/list-user-invitations', { schema: ListUserInvitations, preHandler }, async (request) =>
    org.invitations.listForUser(request.auth),
  );
}

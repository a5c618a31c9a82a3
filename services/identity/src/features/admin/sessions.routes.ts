import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { ListUserSessions, RevokeUserSession, RevokeUserSessions } from './schemas';
import type { AdminWeb } from './web';

/** Session control: each of these lists or ends sessions of another user. */
export async function adminSessionRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { sessions } = ctx.admin;

  app.post('/admin/list-user-sessions', { schema: ListUserSessions, preHandler: session }, async (request) => ({
    sessions: await sessions.listFor(request.auth, request.body.userId, request.body.hideTokens),
  }));

  app.post('/admin/revoke-user-session', { schema: RevokeUserSession, preHandler: session }, async (request) => {
    await sessions.revoke(request.auth, request.body, auditSource(request));
    return { success: true };
  });

  app.post('/admin/revoke-user-sessions', { schema: RevokeUserSessions, preHandler: session }, async (request) => {
    await sessions.revokeAll(request.auth, request.body.userId, auditSource(request));
    return { success: true };
  });
}

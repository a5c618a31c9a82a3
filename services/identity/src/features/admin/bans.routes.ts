import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { BanUser, UnbanUser } from './schemas';
import type { AdminWeb } from './web';

/** Bans (spec §4): a ban ends the user's sessions; unban lifts it. */
export async function adminBanRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { bans } = ctx.admin;

  app.post('/admin/ban-user', { schema: BanUser, preHandler: session }, async (request) => ({
    user: await bans.ban(request.auth, request.body, auditSource(request)),
  }));

  app.post('/admin/unban-user', { schema: UnbanUser, preHandler: session }, async (request) => ({
    user: await bans.unban(request.auth, request.body.userId, auditSource(request)),
  }));
}

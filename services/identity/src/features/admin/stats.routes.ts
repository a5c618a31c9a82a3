import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { AdminStats } from './schemas';
import type { AdminWeb } from './web';

/** The console dashboard's figures. */
export async function adminStatsRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/admin/stats', { schema: AdminStats, preHandler: ctx.requireSession }, async (request) =>
    ctx.admin.stats.read(request.auth, request.query.days ?? 30),
  );
}

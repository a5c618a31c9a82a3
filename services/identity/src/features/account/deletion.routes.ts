import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { checkRedirects, redirectTarget } from '../../http/redirects';
import { requireSession } from '../../http/require-session';
import { DeleteUser, DeleteUserCallback } from './flows.schemas';

export async function deletionRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/delete-user',
    { schema: DeleteUser, preHandler: [checkRedirects(ctx.trusted, 'callbackURL'), requireSession(ctx)] },
    async (request, reply) => {
      const outcome = await ctx.deletion.request(request.auth, request.body, request.headers['accept-language']);
      if (outcome === 'mailed') return { success: true, message: 'Verification email sent' };
      ctx.cookies.clear(reply);
      return { success: true, message: 'User deleted' };
    },
  );

  app.get(
    '/delete-user/callback',
    { schema: DeleteUserCallback, preHandler: [checkRedirects(ctx.trusted, 'callbackURL'), requireSession(ctx)] },
    async (request, reply) => {
      await ctx.deletion.confirm(request.auth, request.query.token);
      ctx.cookies.clear(reply);
      const { callbackURL } = request.query;
      if (callbackURL) return reply.redirect(redirectTarget(callbackURL), 302);
      return { success: true, message: 'User deleted' };
    },
  );
}

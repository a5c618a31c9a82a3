import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { checkRedirects, redirectTarget } from '../../http/redirects';
import { DeleteUser, DeleteUserCallback } from './flows.schemas';
import { deletionConfirmPage } from './mailer';
import type { AccountWeb } from './web';

export async function deletionRoutes(fastify: FastifyInstance, ctx: AccountWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/delete-user',
    {
      schema: DeleteUser,
      preHandler: [checkRedirects(ctx.trusted, 'callbackURL'), ctx.requireSession],
      config: { policy: { apiKeys: 'refused', rateLimit: 'mail' } },
    },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const outcome = await ctx.deletion.request(request.auth, request.body, auditSource(request), lang);
      if (outcome === 'mailed') return { success: true, message: 'Verification email sent' };
      ctx.cookies.clear(reply);
      return { success: true, message: 'User deleted' };
    },
  );

  // A mailed link whose request named no callback names the hosted confirmation page (mailer.ts): it goes there
  // with its token, session or not, and deletes nothing; the page asks, then calls POST /delete-user {token}.
  // Any other callbackURL (a product calling this route itself) keeps the route's behaviour: it deletes.
  const confirmPage = deletionConfirmPage(ctx.config);
  const askFirst = async (request: FastifyRequest, reply: FastifyReply) => {
    const { token, callbackURL } = request.query as { token: string; callbackURL?: string };
    if (confirmPage && callbackURL === confirmPage)
      return reply.redirect(`${confirmPage}?${new URLSearchParams({ token })}`, 303);
  };

  app.get(
    '/delete-user/callback',
    {
      schema: DeleteUserCallback,
      preHandler: [checkRedirects(ctx.trusted, 'callbackURL'), askFirst, ctx.requireSession],
      config: { policy: { apiKeys: 'refused' } },
    },
    async (request, reply) => {
      await ctx.deletion.confirm(request.auth, request.query.token, auditSource(request));
      ctx.cookies.clear(reply);
      const { callbackURL } = request.query;
      if (callbackURL) return reply.redirect(redirectTarget(callbackURL), 302);
      return { success: true, message: 'User deleted' };
    },
  );
}

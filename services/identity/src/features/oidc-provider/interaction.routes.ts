import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors';
import { ContinueInteraction, GetInteraction, PostConsent } from './schemas';
import type { OidcProviderWeb } from './web';

/**
 * The provider's interactions with the user (docs/oidc-provider.md, "Sign-in and consent"):
 * GET  /interaction/:uid/continue  the browser step: 302 to the provider, the hosted sign-in or consent page
 * GET  /interaction/:uid           what the consent page shows (signed-in user's own request)
 * POST /interaction/:uid/consent   { approve } → { redirectTo }
 */
export async function interactionRoutes(fastify: FastifyInstance, ctx: OidcProviderWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = { preHandler: ctx.requireSession, config: { policy: { apiKeys: 'refused' } } } as const;

  // A browser step that fails goes to the hosted error page, never to a JSON body.
  const errorHandler = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (!(error instanceof ApiError) || error.status >= 500)
      request.log.error({ err: error }, 'interaction step failed');
    return reply.redirect(ctx.pages.error(error instanceof ApiError ? error.code : 'INTERNAL_SERVER_ERROR'), 302);
  };

  app.get('/interaction/:uid/continue', { schema: ContinueInteraction, errorHandler }, async (request, reply) => {
    ctx.gateway.asIssuer(request);
    const current = await ctx.optionalSession(request);
    const location = await ctx.interactions.continue(
      request.params.uid,
      current && { user: current.user, since: Math.floor(Date.parse(current.session.createdAt) / 1000) },
      request.raw,
      reply.raw,
    );
    return reply.redirect(location, 302);
  });

  app.get('/interaction/:uid', { schema: GetInteraction, ...signedIn }, (request) =>
    ctx.interactions.details(request.params.uid, request.auth.user),
  );

  app.post('/interaction/:uid/consent', { schema: PostConsent, ...signedIn }, async (request) => ({
    redirectTo: await ctx.interactions.consent(request.params.uid, request.auth.user, request.body.approve),
  }));
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { randomString } from '../../crypto/random';
import { ApiError } from '../../errors';
import { checkRedirects, redirectTarget } from '../../http/redirects';
import { MagicLinkVerify, SignInMagicLink } from './schemas';
import type { MagicLinkWeb } from './web';

/** better-auth's magic-link routes (docs/passwordless.md), so its `magicLinkClient` works unchanged. */
export async function magicLinkRoutes(fastify: FastifyInstance, ctx: MagicLinkWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const redirects = checkRedirects(ctx.trusted, 'callbackURL', 'newUserCallbackURL', 'errorCallbackURL');
  const cookie = ctx.browserCookie;

  app.post(
    '/sign-in/magic-link',
    { schema: SignInMagicLink, preHandler: redirects, config: { policy: { rateLimit: 'mail' } } },
    async (request, reply) => {
      // The browser's binding: kept when it has one, else a new one; sent whatever the address (the same answer).
      const browser = ctx.cookies.readSigned(request, cookie) ?? randomString(32);
      ctx.cookies.setSigned(reply, cookie, { value: browser, maxAgeSec: ctx.config.magicLink.ttlSec });
      await ctx.magicLinks.send(request.body, browser, request.headers['accept-language']);
      return { status: true };
    },
  );

  app.get(
    '/magic-link/verify',
    { schema: MagicLinkVerify, preHandler: redirects, config: { policy: { rateLimit: 'credential' } } },
    async (request, reply) => {
      const { token, callbackURL, newUserCallbackURL, errorCallbackURL } = request.query;
      const context = ctx.signInContext(request);
      const browser = ctx.cookies.readSigned(request, cookie);
      let outcome: Awaited<ReturnType<typeof use>>;
      const use = () =>
        ctx.metrics.countSignIn('magic-link', async () => {
          const proof = await ctx.magicLinks.prove(token, browser, context.source);
          const result = await ctx.signIn.complete(proof.identity, context);
          return { proof, result };
        });
      try {
        outcome = await use();
      } catch (error) {
        // better-auth's redirect with ?error=<code> when the link named where to go
        const back = errorCallbackURL ?? callbackURL;
        if (back && error instanceof ApiError) return reply.redirect(redirectTarget(back, { error: error.code }), 302);
        throw error;
      }
      const { proof, result } = outcome;
      ctx.cookies.applySignIn(reply, result, ctx.clock.now());
      if (result.kind === 'second-factor') {
        if (callbackURL) return reply.redirect(redirectTarget(callbackURL, { twoFactorRedirect: 'true' }), 302);
        return { twoFactorRedirect: true as const, twoFactorMethods: result.methods };
      }
      if (callbackURL)
        return reply.redirect(proof.newUser && newUserCallbackURL ? newUserCallbackURL : callbackURL, 302);
      const { session, user } = result.current;
      return { token: session.token, user, session, newUser: proof.newUser };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { checkRedirects } from '../../http/redirects';
import { errorPage } from './callback.service';
import { CallbackGet, CallbackPost, LinkSocial, SignInSocial } from './schemas';
import { StateCookie } from './state-cookie';
import type { SocialWeb } from './web';

export async function signInRoutes(fastify: FastifyInstance, ctx: SocialWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { social, callback } = ctx.social;
  const stateCookie = new StateCookie(ctx.config);
  const ttl = ctx.config.social.stateTtlSec;
  const redirects = checkRedirects(ctx.trusted, 'callbackURL', 'newUserCallbackURL', 'errorCallbackURL');

  // Each start stores an OAuth state, each id token is checked against the provider's keys: a limit of its own.
  const signIn = { preHandler: redirects, config: { policy: { rateLimit: 'challenge' } } } as const;
  app.post('/sign-in/social', { schema: SignInSocial, ...signIn }, async (request, reply) => {
    const { body } = request;
    if (body.idToken) {
      const result = await ctx.metrics.countSignIn('id_token', () =>
        social.signInWithIdToken(body.provider, body.idToken!, ctx.signInContext(request), body.requestSignUp),
      );
      ctx.cookies.applySignIn(reply, result, ctx.clock.now());
      // as the password sign-in: no session, the pending sign-in's cookie (docs/two-factor.md)
      if (result.kind === 'second-factor')
        return { twoFactorRedirect: true as const, twoFactorMethods: result.methods };
      return { redirect: false, token: result.current.session.token, user: result.current.user };
    }
    const { state, url } = await social.start(body, null);
    stateCookie.set(reply, state, ttl);
    return { url, redirect: !body.disableRedirect };
  });

  app.post(
    '/link-social',
    {
      schema: LinkSocial,
      preHandler: [ctx.requireSession, redirects],
      // linking needs the browser that finishes the provider's flow, not a key (docs/api-keys.md)
      config: { policy: { apiKeys: 'refused' } },
    },
    async (request, reply) => {
      const { body, auth } = request;
      if (body.idToken) {
        await social.linkWithIdToken(auth, body.provider, body.idToken, auditSource(request));
        return { url: '', redirect: false, status: true };
      }
      const { state, url } = await social.start(body, { userId: auth.user.id, email: auth.user.email });
      stateCookie.set(reply, state, ttl);
      return { url, redirect: !body.disableRedirect };
    },
  );

  // A malformed callback (repeated or oversized parameters) still answers with a redirect (spec §8).
  const errorHandler = (_error: unknown, _request: unknown, reply: { redirect(url: string, code: number): unknown }) =>
    reply.redirect(errorPage(ctx.config, 'invalid_callback_request'), 302);

  app.get('/callback/:providerId', { schema: CallbackGet, errorHandler }, async (request, reply) => {
    const params = Object.fromEntries(
      Object.entries(request.query).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const result = await callback.handle(
      request.params.providerId,
      params,
      stateCookie.read(request),
      ctx.signInContext(request),
    );
    stateCookie.clear(reply);
    if (result.signIn) ctx.cookies.applySignIn(reply, result.signIn, ctx.clock.now());
    return reply.redirect(result.location, 302);
  });

  // Apple posts the answer cross-site (response_mode=form_post): a Lax cookie is not sent with that POST, so the
  // browser is sent on to the GET callback with the same parameters. No origin check: the state is the guard.
  app.post(
    '/callback/:providerId',
    { schema: CallbackPost, errorHandler, config: { skipOriginCheck: true } },
    async (request, reply) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...request.body }))
        if (typeof value === 'string') query.set(key, value);
      const path = `${ctx.config.basePath}/callback/${encodeURIComponent(request.params.providerId)}`;
      return reply.redirect(`${ctx.config.publicUrl}${path}?${query}`, 302);
    },
  );
}

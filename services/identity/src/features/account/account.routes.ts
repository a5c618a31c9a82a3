import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { checkRedirects } from '../../http/redirects';
import { sessionJson } from '../../shared/session-json';
import { SignInEmail, SignUpEmail, UpdateUser } from './schemas';
import type { AccountWeb } from './web';

export async function accountRoutes(fastify: FastifyInstance, ctx: AccountWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/sign-up/email',
    {
      schema: SignUpEmail,
      preHandler: checkRedirects(ctx.trusted, 'callbackURL'),
      config: { policy: { rateLimit: { windowSec: 60, max: 5 }, botCheck: true } },
    },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const { user, signIn } = await ctx.accounts.signUp(request.body, auditSource(request), lang);
      const done = signIn && (await ctx.signIn.complete(signIn, ctx.signInContext(request)));
      if (done) ctx.cookies.applySignIn(reply, done, ctx.clock.now());
      return { token: done?.kind === 'signed-in' ? done.current.session.token : null, user };
    },
  );

  app.post(
    '/sign-in/email',
    {
      schema: SignInEmail,
      preHandler: checkRedirects(ctx.trusted, 'callbackURL'),
      config: { policy: { rateLimit: 'credential', botCheck: true } },
    },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const result = await ctx.metrics.countSignIn('email', () =>
        ctx.signInThrottle.guard(request.body.email, async () =>
          ctx.signIn.complete(
            await ctx.accounts.signIn(request.body, auditSource(request), lang),
            ctx.signInContext(request),
          ),
        ),
      );
      ctx.cookies.applySignIn(reply, result, ctx.clock.now());
      // better-auth's two-factor answer: no session, the pending sign-in's cookie (docs/two-factor.md)
      if (result.kind === 'second-factor')
        return { twoFactorRedirect: true as const, twoFactorMethods: result.methods };
      const { current } = result;
      const url = request.body.callbackURL;
      return { redirect: Boolean(url), token: current.session.token, url, user: current.user };
    },
  );

  app.post('/update-user', { schema: UpdateUser, preHandler: ctx.requireSession }, async (request, reply) => {
    const user = await ctx.accounts.updateProfile(request.auth.user.id, request.body, auditSource(request));
    if (request.cookies[ctx.cookies.tokenName])
      ctx.cookies.setCache(
        reply,
        request.auth.session,
        sessionJson({ session: request.auth.session, user }),
        ctx.clock.now(),
      );
    return { status: true };
  });
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { checkRedirects } from '../../http/redirects';
import { sessionJson } from '../../shared/session-json';
import type { AccountWeb } from './deps';
import { SignInEmail, SignUpEmail, UpdateUser } from './schemas';

export async function accountRoutes(fastify: FastifyInstance, ctx: AccountWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/sign-up/email',
    { schema: SignUpEmail, preHandler: checkRedirects(ctx.trusted, 'callbackURL') },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const { user, session } = await ctx.accounts.signUp(request.body, auditSource(request), lang);
      if (session) ctx.cookies.set(reply, session, ctx.clock.now());
      return { token: session?.session.token ?? null, user };
    },
  );

  app.post(
    '/sign-in/email',
    { schema: SignInEmail, preHandler: checkRedirects(ctx.trusted, 'callbackURL') },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const current = await ctx.metrics.countSignIn('email', () =>
        ctx.signInThrottle.guard(request.body.email, () =>
          ctx.accounts.signIn(request.body, auditSource(request), lang),
        ),
      );
      ctx.cookies.set(reply, current, ctx.clock.now());
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

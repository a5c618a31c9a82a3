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
    {
      schema: SignUpEmail,
      preHandler: checkRedirects(ctx.trusted, 'callbackURL'),
      config: { policy: { rateLimit: { windowSec: 60, max: 5 }, botCheck: true } },
    },
    async (request, reply) => {
      const lang = request.headers['accept-language'];
      const { user, session } = await ctx.accounts.signUp(request.body, auditSource(request), lang);
      if (session) ctx.cookies.set(reply, session, ctx.clock.now());
      return { token: session?.session.token ?? null, user };
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
      const device = ctx.cookies.readTrustedDevice(request);
      const outcome = await ctx.metrics.countSignIn('email', () =>
        ctx.signInThrottle.guard(request.body.email, () =>
          ctx.accounts.signIn(request.body, auditSource(request), lang, device),
        ),
      );
      if (outcome.kind === 'second-factor') {
        // better-auth's two-factor answer: no session, a signed cookie naming the pending sign-in (docs/two-factor.md)
        ctx.cookies.clear(reply);
        if (outcome.forgetDevice) ctx.cookies.clearNamed(reply, ctx.cookies.trustDeviceName);
        ctx.cookies.setSigned(reply, ctx.cookies.twoFactorName, outcome.challenge);
        return { twoFactorRedirect: true as const, twoFactorMethods: outcome.methods };
      }
      const { current } = outcome;
      ctx.cookies.set(reply, current, ctx.clock.now());
      if (outcome.trustedDevice) ctx.cookies.setSigned(reply, ctx.cookies.trustDeviceName, outcome.trustedDevice);
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

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors';
import { auditSource, serviceActorOf } from '../../http/audit-source';
import { checkRedirects, redirectTarget } from '../../http/redirects';
import type { RoutePolicy } from '../../http/route-policy';
import { ChangePassword, RequestPasswordReset, ResetPassword, ResetPasswordLink, SetPassword } from './flows.schemas';
import { RESET_REQUESTED_MESSAGE } from './password.service';
import type { AccountWeb } from './web';

export async function passwordRoutes(fastify: FastifyInstance, ctx: AccountWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const options = {
    schema: RequestPasswordReset,
    preHandler: checkRedirects(ctx.trusted, 'redirectTo'),
    config: { policy: { rateLimit: 'mail', botCheck: true } satisfies RoutePolicy },
  };

  // spec §2: /forget-password is an alias of /request-password-reset.
  for (const path of ['/request-password-reset', '/forget-password'])
    app.post(path, options, async (request) => {
      const { email, redirectTo } = request.body;
      await ctx.passwords.requestReset(email, redirectTo, request.headers['accept-language']);
      return { status: true, message: RESET_REQUESTED_MESSAGE };
    });

  app.get(
    '/reset-password/:token',
    { schema: ResetPasswordLink, preHandler: checkRedirects(ctx.trusted, 'callbackURL') },
    async (request, reply) => {
      const { callbackURL } = request.query;
      if (!callbackURL) return fail('CALLBACK_URL_REQUIRED');
      const { token } = request.params;
      const live = await ctx.passwords.isResetTokenLive(token);
      return reply.redirect(redirectTarget(callbackURL, live ? { token } : { error: 'INVALID_TOKEN' }), 302);
    },
  );

  app.post(
    '/reset-password',
    { schema: ResetPassword, config: { policy: { rateLimit: 'credential' } } },
    async (request) => {
      const token = request.body.token ?? request.query.token;
      if (!token) return fail('INVALID_TOKEN');
      await ctx.passwords.resetPassword(token, request.body.newPassword, auditSource(request));
      return { status: true };
    },
  );

  app.post(
    '/change-password',
    {
      schema: ChangePassword,
      preHandler: ctx.requireSession,
      config: { policy: { apiKeys: 'refused', rateLimit: 'credential' } },
    },
    async (request, reply) => {
      const { session, user } = await ctx.passwords.changePassword(request.auth, request.body, auditSource(request));
      if (session) ctx.cookies.set(reply, session, ctx.clock.now());
      return { token: session?.session.token ?? null, user };
    },
  );

  app.post(
    '/set-password',
    {
      schema: SetPassword,
      config: { skipOriginCheck: true, policy: { apiKeys: 'refused' } }, // browsers: refused by the credential check
      preHandler: [ctx.requireServiceCredential, ctx.requireSession],
    },
    async (request) => {
      const source = auditSource(request, serviceActorOf(request));
      await ctx.passwords.setPassword(request.auth.user.id, request.body.newPassword, source);
      return { status: true };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { checkRedirects } from '../../http/redirects';
import { SendResetPassword, SendVerificationEmail } from './schemas';
import type { AdminWeb } from './web';

/** Account mails an operator sends for a user. */
export async function adminUserMailRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;

  app.post(
    '/admin/send-reset-password',
    { schema: SendResetPassword, preHandler: [session, checkRedirects(ctx.trusted, 'redirectTo')] },
    async (request) => {
      await ctx.admin.userMail.sendReset(request.auth, request.body.userId, request.body.redirectTo);
      return { status: true };
    },
  );

  app.post(
    '/admin/send-verification-email',
    { schema: SendVerificationEmail, preHandler: [session, checkRedirects(ctx.trusted, 'callbackURL')] },
    async (request) => {
      await ctx.admin.userMail.sendVerification(request.auth, request.body.userId, request.body.callbackURL);
      return { status: true };
    },
  );
}

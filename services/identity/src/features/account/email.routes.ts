import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorCode } from '../../errors';
import { auditSource } from '../../http/audit-source';
import { checkRedirects, redirectTarget } from '../../http/redirects';
import type { VerifyEmailError } from './email.service';
import { ChangeEmail, SendVerificationEmail, VerifyEmail } from './flows.schemas';
import type { AccountWeb } from './web';

/** Without a callbackURL, verify-email answers JSON: the redirect codes of spec §8 map to catalogue errors. */
const JSON_ERRORS: Record<VerifyEmailError, ErrorCode> = {
  token_expired: 'INVALID_TOKEN',
  invalid_token: 'INVALID_TOKEN',
  user_not_found: 'USER_NOT_FOUND',
  unauthorized: 'UNAUTHORIZED',
};

export async function emailRoutes(fastify: FastifyInstance, ctx: AccountWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/send-verification-email',
    {
      schema: SendVerificationEmail,
      preHandler: checkRedirects(ctx.trusted, 'callbackURL'),
      config: { policy: { rateLimit: 'mail' } },
    },
    async (request) => {
      const auth = await ctx.optionalSession(request);
      const { email, callbackURL } = request.body;
      await ctx.emails.sendVerification(email, callbackURL, auth, request.headers['accept-language']);
      return { status: true };
    },
  );

  app.get(
    '/verify-email',
    { schema: VerifyEmail, preHandler: checkRedirects(ctx.trusted, 'callbackURL') },
    async (request, reply) => {
      const { token, callbackURL } = request.query;
      const auth = await ctx.optionalSession(request);
      const result = await ctx.emails.verify(
        token,
        auth,
        auditSource(
          request,
          auth ? { type: 'user', id: auth.user.id, impersonatorId: auth.session.impersonatedBy } : undefined,
        ),
        request.headers['accept-language'],
      );
      if (!result.ok) {
        if (callbackURL) return reply.redirect(redirectTarget(callbackURL, { error: result.error }), 302);
        throw new ApiError(JSON_ERRORS[result.error]);
      }
      // Signed in after verification (emailVerification.autoSignInAfterVerification): through the sign-in seam, so a
      // user with a second factor gets a pending sign-in and the page is told to ask for the code.
      const signedIn = result.signIn && (await ctx.signIn.complete(result.signIn, ctx.signInContext(request)));
      if (signedIn) ctx.cookies.applySignIn(reply, signedIn, ctx.clock.now());
      const pending = signedIn && signedIn.kind === 'second-factor' ? { twoFactorRedirect: 'true' } : undefined;
      if (callbackURL) return reply.redirect(redirectTarget(callbackURL, pending), 302);
      return { status: true, user: result.user };
    },
  );

  app.post(
    '/change-email',
    {
      schema: ChangeEmail,
      preHandler: [checkRedirects(ctx.trusted, 'callbackURL'), ctx.requireSession],
      config: { policy: { apiKeys: 'refused', rateLimit: 'mail' } },
    },
    async (request) => {
      const { newEmail, callbackURL } = request.body;
      await ctx.emails.changeEmail(
        request.auth,
        newEmail,
        callbackURL,
        auditSource(request),
        request.headers['accept-language'],
      );
      return { status: true };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors';
import { auditSource } from '../../http/audit-source';
import {
  ChangeEmailOtp,
  CheckVerificationOtp,
  RequestEmailChangeOtp,
  RequestPasswordResetOtp,
  ResetPasswordOtp,
  SendVerificationOtp,
  SignInEmailOtp,
  VerifyEmailOtp,
} from './schemas';
import type { EmailOtpWeb } from './web';

/** better-auth's email-otp routes (docs/passwordless.md), so its `emailOTPClient` works unchanged. */
export async function emailOtpRoutes(fastify: FastifyInstance, ctx: EmailOtpWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const success = { success: true };

  app.post(
    '/email-otp/send-verification-otp',
    { schema: SendVerificationOtp, config: { policy: { rateLimit: 'mail' } } },
    async (request) => {
      const { email, type } = request.body;
      // better-auth sends the change-of-email code from its own route
      if (type === 'change-email') fail('INVALID_OTP_TYPE');
      await ctx.codes.send(email, type, request.headers['accept-language']);
      return success;
    },
  );

  app.post(
    '/sign-in/email-otp',
    { schema: SignInEmailOtp, config: { policy: { rateLimit: 'credential' } } },
    async (request, reply) => {
      const { email, otp, name, image } = request.body;
      const context = ctx.signInContext(request);
      const result = await ctx.metrics.countSignIn('email-otp', async () => {
        const identity = await ctx.codes.proveSignIn(email, otp, { name, image }, context.source);
        return ctx.signIn.complete(identity, context);
      });
      ctx.cookies.applySignIn(reply, result, ctx.clock.now());
      if (result.kind === 'second-factor')
        return { twoFactorRedirect: true as const, twoFactorMethods: result.methods };
      return { token: result.current.session.token, user: result.current.user };
    },
  );

  app.post(
    '/email-otp/check-verification-otp',
    { schema: CheckVerificationOtp, config: { policy: { rateLimit: 'credential' } } },
    async (request) => {
      const { email, type, otp } = request.body;
      await ctx.codes.checkOnly(email, type, otp, auditSource(request));
      return success;
    },
  );

  app.post(
    '/email-otp/verify-email',
    { schema: VerifyEmailOtp, config: { policy: { rateLimit: 'credential' } } },
    async (request, reply) => {
      const auth = await ctx.optionalSession(request);
      const { email, otp } = request.body;
      const { user, signIn } = await ctx.codes.verifyEmail(email, otp, auth, auditSource(request));
      const now = ctx.clock.now();
      if (signIn) {
        // Signed in after the verification (AUTO_SIGN_IN_AFTER_VERIFICATION): through the sign-in seam, as a link's.
        const result = await ctx.signIn.complete(signIn, ctx.signInContext(request));
        ctx.cookies.applySignIn(reply, result, now);
        if (result.kind === 'second-factor')
          return {
            status: true as const,
            token: null,
            user,
            twoFactorRedirect: true as const,
            twoFactorMethods: result.methods,
          };
        return { status: true as const, token: result.current.session.token, user: result.current.user };
      }
      // The caller's own address: its cache cookie says verified at once, as better-auth's does.
      if (auth?.user.id === user.id) ctx.cookies.reissueCache(request, reply, { session: auth.session, user }, now);
      return { status: true as const, token: null, user };
    },
  );

  const requestReset = async (request: { body: { email: string }; headers: { 'accept-language'?: string } }) => {
    await ctx.codes.send(request.body.email, 'forget-password', request.headers['accept-language']);
    return success;
  };
  app.post(
    '/email-otp/request-password-reset',
    { schema: RequestPasswordResetOtp, config: { policy: { rateLimit: 'mail' } } },
    requestReset,
  );
  // better-auth's older name of the same route
  app.post(
    '/forget-password/email-otp',
    { schema: RequestPasswordResetOtp, config: { policy: { rateLimit: 'mail' } } },
    requestReset,
  );

  app.post(
    '/email-otp/reset-password',
    { schema: ResetPasswordOtp, config: { policy: { rateLimit: 'credential' } } },
    async (request) => {
      const { email, otp, password } = request.body;
      await ctx.codes.resetPassword(email, otp, password, auditSource(request));
      return success;
    },
  );

  // Change of email by code (off unless EMAIL_OTP_CHANGE_EMAIL): the signed-in user, never a key standing for one.
  app.post(
    '/email-otp/request-email-change',
    {
      schema: RequestEmailChangeOtp,
      preHandler: ctx.requireSession,
      config: { policy: { apiKeys: 'refused', rateLimit: 'mail' } },
    },
    async (request) => {
      const { newEmail, otp } = request.body;
      const lang = request.headers['accept-language'];
      await ctx.codes.requestEmailChange(request.auth, newEmail, otp, auditSource(request), lang);
      return success;
    },
  );

  app.post(
    '/email-otp/change-email',
    {
      schema: ChangeEmailOtp,
      preHandler: ctx.requireSession,
      config: { policy: { apiKeys: 'refused', rateLimit: 'credential' } },
    },
    async (request, reply) => {
      const { auth } = request;
      const user = await ctx.codes.changeEmail(auth, request.body.newEmail, request.body.otp, auditSource(request));
      // The browser's cache cookie names the new address at once, as better-auth's does.
      ctx.cookies.reissueCache(request, reply, { session: auth.session, user }, ctx.clock.now());
      return success;
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors';
import { auditSource } from '../../http/audit-source';
import {
  CheckVerificationOtp,
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
    async (request) => {
      const user = await ctx.codes.verifyEmail(request.body.email, request.body.otp, auditSource(request));
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
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, fail } from '../../errors';
import { auditSource } from '../../http/audit-source';
import { sessionJson } from '../../shared/session-json';
import type { SignInResult } from '../../shared/sign-in';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { Factor } from './codes';
import {
  DisableTwoFactor,
  EnableTwoFactor,
  GenerateBackupCodes,
  GetTotpUri,
  TwoFactorStatus,
  VerifyBackupCode,
  VerifyTotp,
} from './schemas';
import type { TwoFactorWeb } from './web';

export async function twoFactorRoutes(fastify: FastifyInstance, ctx: TwoFactorWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const lang = (request: FastifyRequest) => request.headers['accept-language'];

  /** The caller's browser gets a cache cookie of the changed user, so get-session does not answer the old one. */
  const reissue = (request: FastifyRequest, reply: FastifyReply, current: SessionWithUser, user: UserView) => {
    if (request.cookies[ctx.cookies.tokenName])
      ctx.cookies.setCache(reply, current.session, sessionJson({ session: current.session, user }), ctx.clock.now());
  };

  // The routes' policies (http/route-policy.ts): each takes a password or a code, so each has the credential limit;
  // a second factor is the person's, so no API key enrols, removes or reads one (docs/two-factor.md).
  const personal = { apiKeys: 'refused', rateLimit: 'credential' } as const;
  const personSession = { preHandler: ctx.requireSession, config: { policy: personal } };
  const codeCheck = { config: { policy: { rateLimit: 'credential' } } } as const;

  app.post('/two-factor/enable', { schema: EnableTwoFactor, ...personSession }, async (request) =>
    ctx.twoFactor.enable(request.auth.user, request.body.password, request.body.issuer),
  );

  app.post(
    '/two-factor/disable',
    { schema: DisableTwoFactor, preHandler: ctx.requireFreshSession, config: { policy: personal } },
    async (request, reply) => {
      const { user, organizationsCleared } = await ctx.twoFactor.disable(
        request.auth.user,
        request.body.password,
        auditSource(request),
        lang(request),
      );
      ctx.cookies.clearNamed(reply, ctx.cookies.trustDeviceName);
      // An organization requiring a second factor is no longer this session's active one (docs/two-factor.md).
      const { session } = request.auth;
      const active = session.activeOrganizationId;
      const cleared = active !== null && organizationsCleared.includes(active);
      reissue(request, reply, { session: cleared ? { ...session, activeOrganizationId: null } : session, user }, user);
      return { status: true };
    },
  );

  app.post('/two-factor/get-totp-uri', { schema: GetTotpUri, ...personSession }, async (request) => ({
    totpURI: await ctx.twoFactor.totpUri(request.auth.user, request.body.password),
  }));

  app.post(
    '/two-factor/generate-backup-codes',
    { schema: GenerateBackupCodes, preHandler: ctx.requireSession, config: { policy: personal } },
    async (request) => ({
      status: true as const,
      backupCodes: await ctx.twoFactor.regenerateBackupCodes(
        request.auth.user,
        request.body.password,
        auditSource(request),
        lang(request),
      ),
    }),
  );

  app.get('/two-factor/status', { schema: TwoFactorStatus, preHandler: ctx.requireSession }, async (request) =>
    ctx.twoFactor.status(request.auth.user),
  );

  /**
   * A pending sign-in (its signed cookie) completed with a code of `factor`: the session cookies, the trusted-device
   * cookie when asked for, the pending cookie cleared. A pending sign-in given up (too many attempts) clears it too.
   */
  const completeSignIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    factor: Factor,
    body: { code: string; trustDevice?: boolean },
  ) => {
    const challenge = ctx.cookies.readSigned(request, ctx.cookies.twoFactorName);
    if (!challenge) {
      // answered as for a pending sign-in that expired or was given up: nothing tells a forged cookie apart
      ctx.cookies.clearNamed(reply, ctx.cookies.twoFactorName);
      fail('INVALID_TWO_FACTOR_COOKIE');
    }
    let result: SignInResult;
    try {
      const context = ctx.signInContext(request);
      const identity = await ctx.challenges.proveSecondStep(
        challenge,
        factor,
        body.code,
        body.trustDevice === true,
        context.source,
      );
      result = await ctx.signIn.complete(identity, context);
    } catch (error) {
      if (error instanceof ApiError && endsChallenge.has(error.code))
        ctx.cookies.clearNamed(reply, ctx.cookies.twoFactorName);
      throw error;
    }
    // The second step skips the gate: the seam answers a session.
    if (result.kind !== 'signed-in') return fail('INVALID_TWO_FACTOR_COOKIE');
    ctx.cookies.clearNamed(reply, ctx.cookies.twoFactorName);
    ctx.cookies.applySignIn(reply, result, ctx.clock.now());
    return { token: result.current.session.token, user: result.current.user };
  };

  /** The signed-in caller as the actor of what a code checked with their session records. */
  const signedIn = (request: FastifyRequest, current: SessionWithUser) =>
    auditSource(request, { type: 'user', id: current.user.id, impersonatorId: current.session.impersonatedBy });

  // A signed-in caller confirms the enrolment (or just checks a code); otherwise the code completes a sign-in.
  app.post('/two-factor/verify-totp', { schema: VerifyTotp, ...codeCheck }, async (request, reply) => {
    const current = await ctx.optionalSession(request);
    if (!current) return completeSignIn(request, reply, 'totp', request.body);
    const user = await ctx.twoFactor.verifyTotpSignedIn(
      current.user,
      request.body.code,
      signedIn(request, current),
      lang(request),
    );
    if (user !== current.user) reissue(request, reply, current, user);
    return { token: current.session.token, user };
  });

  app.post('/two-factor/verify-backup-code', { schema: VerifyBackupCode, ...codeCheck }, async (request, reply) => {
    const current = await ctx.optionalSession(request);
    if (!current) {
      if (request.body.disableSession)
        fail('VALIDATION_ERROR', [{ field: 'disableSession', problem: 'a pending sign-in always ends in a session' }]);
      return completeSignIn(request, reply, 'backup-code', request.body);
    }
    await ctx.twoFactor.verifyBackupCodeSignedIn(current.user, request.body.code, signedIn(request, current));
    return { token: current.session.token, user: current.user };
  });
}

/** Errors after which the pending sign-in is gone: its cookie is cleared with the answer. */
const endsChallenge = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);

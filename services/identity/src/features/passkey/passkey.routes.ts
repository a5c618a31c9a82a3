import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../errors';
import { auditSource } from '../../http/audit-source';
import { sessionJson } from '../../shared/session-json';
import type { SessionWithUser, UserView } from '../../shared/views';
import {
  DeletePasskey,
  GenerateAuthenticateOptions,
  GenerateRegisterOptions,
  ListUserPasskeys,
  UpdatePasskey,
  VerifyAuthentication,
  VerifyRegistration,
} from './schemas';
import type { PasskeyWeb } from './web';

/** better-auth's passkey routes (docs/two-factor.md "Passkeys"), so its `passkeyClient` works unchanged. */
export async function passkeyRoutes(fastify: FastifyInstance, ctx: PasskeyWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const lang = (request: FastifyRequest) => request.headers['accept-language'];
  const cookie = ctx.cookies.passkeyName;

  /** The caller's browser gets a cache cookie of the changed user, so get-session does not answer the old one. */
  const reissue = (request: FastifyRequest, reply: FastifyReply, current: SessionWithUser, user: UserView) => {
    if (request.cookies[ctx.cookies.tokenName])
      ctx.cookies.setCache(reply, current.session, sessionJson({ session: current.session, user }), ctx.clock.now());
  };

  /**
   * The challenge cookie's ceremony id; the cookie is cleared with the answer whatever it is (the ceremony is used
   * once). No cookie, or a forged one, is CHALLENGE_NOT_FOUND.
   */
  const challengeOf = (request: FastifyRequest, reply: FastifyReply): string => {
    const id = ctx.cookies.readSigned(request, cookie);
    if (request.cookies[cookie] !== undefined) ctx.cookies.clearNamed(reply, cookie);
    return id ?? fail('CHALLENGE_NOT_FOUND');
  };

  /** An impersonation session is the operator's, not the person's: it never adds a passkey (a way back in). */
  const notImpersonating = (request: FastifyRequest) => {
    if (request.auth.session.impersonatedBy) fail('YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY');
  };

  // The routes' policies (http/route-policy.ts). A passkey is the person's: no API key registers, renames or removes
  // one (docs/two-factor.md "Passkeys"). A passkey sign-in is limited as the password's; each options call stores a
  // challenge.
  const personal = { apiKeys: 'refused', rateLimit: 'credential' } as const;
  const rename = {
    preHandler: ctx.requireSession,
    config: { policy: { apiKeys: 'refused', rateLimit: { windowSec: 60, max: 30 } } },
  } as const;
  const authenticate = { schema: GenerateAuthenticateOptions, config: { policy: { rateLimit: 'challenge' } } } as const;
  const signIn = { config: { policy: { rateLimit: 'credential' } } } as const;

  app.get(
    '/passkey/generate-register-options',
    { schema: GenerateRegisterOptions, preHandler: ctx.requireFreshSession, config: { policy: personal } },
    async (request, reply) => {
      notImpersonating(request);
      const { options, challenge } = await ctx.passkeys.registrationOptions(request.auth.user, request.query);
      ctx.cookies.setSigned(reply, cookie, challenge);
      return options;
    },
  );

  app.post(
    '/passkey/verify-registration',
    { schema: VerifyRegistration, preHandler: ctx.requireFreshSession, config: { policy: personal } },
    async (request, reply) => {
      notImpersonating(request);
      const challenge = challengeOf(request, reply);
      const { passkey, user } = await ctx.passkeys.register(
        request.auth.user,
        challenge,
        request.body,
        auditSource(request),
        lang(request),
      );
      reissue(request, reply, request.auth, user);
      return passkey;
    },
  );

  app.get('/passkey/generate-authenticate-options', authenticate, async (request, reply) => {
    const current = await ctx.optionalSession(request);
    const { options, challenge } = await ctx.passkeys.authenticationOptions(current?.user ?? null);
    ctx.cookies.setSigned(reply, cookie, challenge);
    return options;
  });

  app.post('/passkey/verify-authentication', { schema: VerifyAuthentication, ...signIn }, async (request, reply) => {
    const challenge = challengeOf(request, reply);
    const context = ctx.signInContext(request);
    const result = await ctx.metrics.countSignIn('passkey', async () =>
      ctx.signIn.complete(await ctx.passkeys.signIn(challenge, request.body.response, context.source), context),
    );
    ctx.cookies.applySignIn(reply, result, ctx.clock.now());
    // A passkey proof skips the second factor: the seam always answers a session here.
    return result.kind === 'signed-in' ? result.current : fail('AUTHENTICATION_FAILED');
  });

  app.get('/passkey/list-user-passkeys', { schema: ListUserPasskeys, preHandler: ctx.requireSession }, (request) =>
    ctx.passkeys.list(request.auth.user.id),
  );

  app.post('/passkey/update-passkey', { schema: UpdatePasskey, ...rename }, async (request) => ({
    passkey: await ctx.passkeys.rename(request.auth.user, request.body.id, request.body.name),
  }));

  app.post(
    '/passkey/delete-passkey',
    { schema: DeletePasskey, preHandler: ctx.requireSession, config: { policy: personal } },
    async (request, reply) => {
      const { user, organizationsCleared } = await ctx.passkeys.remove(
        request.auth.user,
        request.body.id,
        auditSource(request),
        lang(request),
      );
      // An organization requiring a second factor may no longer be this session's active one (docs/two-factor.md).
      const { session } = request.auth;
      const active = session.activeOrganizationId;
      const cleared = active !== null && organizationsCleared.includes(active);
      reissue(request, reply, { session: cleared ? { ...session, activeOrganizationId: null } : session, user }, user);
      return { status: true };
    },
  );
}

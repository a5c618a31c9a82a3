import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import { auditSource } from '../../http/audit-source';
import { AccountInfo, GetAccessToken, ListAccounts, RefreshToken, UnlinkAccount } from './schemas';
import type { SocialWeb } from './web';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user whose provider accounts the call reads: the caller's, or a `userId` from a trusted server. */
    accountOwner: string;
  }
}

/**
 * Server-only: a `userId` in the body is honoured only with the service credential; without one the
 * caller acts for themselves (session), so no user ever reads another's tokens. A caller presenting neither a
 * session nor a key is unauthenticated (401) whatever the body names; 403 SERVER_ONLY is for a caller who is
 * someone (a session, a key, a page) and asks for another user.
 */
function ownerFromSessionOrService(fastify: FastifyInstance, ctx: SocialWeb) {
  const service = ctx.requireServiceCredential;
  const session = ctx.requireSession;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = (request.body as { userId?: string } | undefined)?.userId;
    if (userId !== undefined) {
      const keyPresented = typeof request.headers[ctx.config.apiKey.header] === 'string';
      if (!keyPresented && !(await ctx.optionalSession(request))) fail('UNAUTHORIZED');
      await service.call(fastify, request, reply, () => {});
      request.accountOwner = isId(userId) ? userId : fail('ACCOUNT_NOT_FOUND');
      return;
    }
    await session.call(fastify, request, reply, () => {});
    request.accountOwner = request.auth.user.id;
  };
}

export async function accountsRoutes(fastify: FastifyInstance, ctx: SocialWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { tokens } = ctx.social;
  const owner = ownerFromSessionOrService(fastify, ctx);

  app.get('/list-accounts', { schema: ListAccounts, preHandler: ctx.requireSession }, async (request) =>
    tokens.list(request.auth.user.id),
  );

  // Unlinking is the other half of an account takeover: never with a key (docs/api-keys.md).
  const person = { preHandler: ctx.requireFreshSession, config: { policy: { apiKeys: 'refused' } } } as const;
  app.post('/unlink-account', { schema: UnlinkAccount, ...person }, async (request) => {
    await tokens.unlink(request.auth.user.id, request.body, auditSource(request));
    return { status: true };
  });

  app.post('/get-access-token', { schema: GetAccessToken, preHandler: owner }, async (request) =>
    tokens.accessToken(request.accountOwner, request.body),
  );

  app.post('/refresh-token', { schema: RefreshToken, preHandler: owner }, async (request) =>
    tokens.refresh(request.accountOwner, request.body),
  );

  app.post('/account-info', { schema: AccountInfo, preHandler: owner }, async (request) =>
    tokens.info(request.accountOwner, request.body.accountId),
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { GetJwks, GetToken } from './schemas';
import type { JwtWeb } from './web';

/**
 * Signed session tokens (better-auth's jwt plugin routes and shapes):
 * GET /token  a JWT for the caller's session, `{ token }`
 * GET /jwks   the public keys, `{ keys }`; public, answered from memory
 */
export async function tokenRoutes(fastify: FastifyInstance, ctx: JwtWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // The session is read from PostgreSQL (requireSession): a revoked session never gets a new token. A JWT names a
  // stored session (its sid), which a key's session is not: no key stands for one here.
  const stored = { preHandler: ctx.requireSession, config: { policy: { apiKeys: 'refused' } } } as const;
  app.get('/token', { schema: GetToken, ...stored }, async (request) => ({
    token: await ctx.tokens.issue(request.auth),
  }));

  app.get('/jwks', { schema: GetJwks }, () => ctx.keys.publicSet());
}

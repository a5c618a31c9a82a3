import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Introspect, IntrospectBatch } from './schemas';
import type { IntrospectionWeb } from './web';

/**
 * Session introspection for internal services, server only:
 * POST /introspect        { token }      → RFC 7662 answer
 * POST /introspect/batch  { tokens: [] } → { results: [...] } in the same order
 */
export async function introspectionRoutes(fastify: FastifyInstance, ctx: IntrospectionWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const options = {
    config: { skipOriginCheck: true, rateLimit: false as const, lookup: true }, // browsers are refused by the credential check
    preHandler: ctx.requireServiceCredential,
  };

  app.post('/introspect', { ...options, schema: Introspect }, (request) =>
    ctx.introspection.introspect(request.body.token),
  );

  app.post('/introspect/batch', { ...options, schema: IntrospectBatch }, async (request) => ({
    results: await ctx.introspection.introspectMany(request.body.tokens),
  }));
}

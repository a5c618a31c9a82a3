import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CATALOGUE, fail } from '../../errors';
import { auditSource, serviceActorOf } from '../../http/audit-source';
import type { ApiKeyCaller } from './api-key.service';
import { CreateApiKey, DeleteApiKey, GetApiKey, ListApiKeys, UpdateApiKey, VerifyApiKey } from './schemas';
import type { ApiKeyWeb } from './web';

/**
 * The caller of a management route: a session (cookie or Bearer, from PostgreSQL), or, with the key header and no
 * session, a server holding the service credential. An API key never manages keys as a session (a leaked key must
 * not mint new ones).
 */
async function callerOf(ctx: ApiKeyWeb, request: FastifyRequest): Promise<ApiKeyCaller> {
  if (ctx.cookies.readToken(request)) {
    const auth = await ctx.optionalSession(request);
    if (!auth) return fail('UNAUTHORIZED');
    const actor = { type: 'user', id: auth.user.id, impersonatorId: auth.session.impersonatedBy } as const;
    return { kind: 'user', auth, source: auditSource(request, actor) };
  }
  if (request.headers[ctx.config.apiKey.header] === undefined) return fail('UNAUTHORIZED');
  await ctx.assertServiceCredential(request);
  return { kind: 'server', source: auditSource(request, serviceActorOf(request)) };
}

export async function apiKeyRoutes(fastify: FastifyInstance, ctx: ApiKeyWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const keys = ctx.apiKeys;

  app.post('/api-key/create', { schema: CreateApiKey }, async (request) =>
    keys.create(await callerOf(ctx, request), request.body),
  );
  app.get('/api-key/get', { schema: GetApiKey }, async (request) =>
    keys.get(await callerOf(ctx, request), request.query.id),
  );
  app.get('/api-key/list', { schema: ListApiKeys }, async (request) =>
    keys.list(await callerOf(ctx, request), request.query),
  );
  app.post('/api-key/update', { schema: UpdateApiKey }, async (request) =>
    keys.update(await callerOf(ctx, request), request.body),
  );
  app.post('/api-key/delete', { schema: DeleteApiKey }, async (request) =>
    keys.delete(await callerOf(ctx, request), request.body.keyId),
  );

  // better-auth answers 200 with `valid` and the refusal, so a caller reads one shape for every outcome.
  app.post(
    '/api-key/verify',
    {
      schema: VerifyApiKey,
      config: { skipOriginCheck: true }, // refused to browsers outright by the service credential check
      preHandler: ctx.requireServiceCredential,
    },
    async (request) => {
      const result = await keys.verify(request.body.key, request.body.permissions);
      if (result.valid) return { valid: true, error: null, key: result.key };
      const { code, tryAgainIn } = result;
      const error = { code, message: CATALOGUE[code].message, ...(tryAgainIn === undefined ? {} : { tryAgainIn }) };
      return { valid: false, error, key: null };
    },
  );
}

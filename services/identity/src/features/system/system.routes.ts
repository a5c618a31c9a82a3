import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../shared/schemas';
import { renderErrorPage } from './error-page';

export async function systemRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/ok',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness of the API',
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errorResponses },
      },
      config: { rateLimit: false, lookup: true },
    },
    async () => ({ ok: true }),
  );

  app.get(
    '/error',
    {
      schema: {
        tags: ['system'],
        summary: 'HTML page showing an error code (redirect target of failed flows)',
        querystring: Type.Object({ error: Type.Optional(Type.String({ maxLength: 256 })) }),
        response: { 200: Type.String({ description: 'text/html' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      return renderErrorPage(request.query.error ?? 'unknown_error');
    },
  );
}

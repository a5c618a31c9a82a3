import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../shared/schemas';
import type { ReadinessCheck } from './readiness';

const State = Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('not-configured')]);
const ReadinessSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not-ready'), Type.Literal('draining')]),
    checks: Type.Object({ database: State, migrations: State, redis: State }),
  },
  { $id: 'Readiness', title: 'Readiness' },
);

/** Probes for orchestrators (under the base path, like every route): liveness (the process answers) and readiness (it can serve). */
export async function healthRoutes(
  fastify: FastifyInstance,
  { readiness }: { readiness: ReadinessCheck },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const probe = { config: { rateLimit: false, lookup: true } };

  app.get(
    '/health/live',
    {
      ...probe,
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (no dependency is asked)',
        response: { 200: Type.Object({ status: Type.Literal('live') }), ...errorResponses },
      },
    },
    async () => ({ status: 'live' as const }),
  );

  app.get(
    '/health/ready',
    {
      ...probe,
      schema: {
        tags: ['system'],
        summary: 'Readiness: PostgreSQL answers and migrations are applied; Redis reported, not required',
        response: { 200: ReadinessSchema, 503: ReadinessSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const { ready, draining, checks } = await readiness.check();
      const status = ready ? 'ready' : draining ? 'draining' : 'not-ready';
      return reply.code(ready ? 200 : 503).send({ status, checks });
    },
  );
}

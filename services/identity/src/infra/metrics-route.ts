import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics';

/**
 * `GET /metrics` (Prometheus text, at the root of the port, not in the OpenAPI document) and the hook that times
 * every request by its route pattern (never the raw URL: tokens live in some paths).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const { method } = request;
    const status = reply.statusCode;
    metrics.http.observe(
      `${method} ${status} ${route}`,
      () => ({ method, route, status: String(status) }),
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}

import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { withDeadline } from '../shared/request-deadline';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route's deadline in milliseconds, for a route whose work documents a longer one than
     * REQUEST_TIMEOUT_MS (docs/operations.md, "Request deadline").
     */
    deadlineMs?: number;
  }
}

/**
 * Every route answers within its deadline (REQUEST_TIMEOUT_MS, or the route's own `config.deadlineMs`), counted
 * from the moment it was routed:
 * - the work the request starts carries the deadline (shared/request-deadline.ts), so its waits for PostgreSQL end
 *   in time to answer 503 before it (db/pool.ts, shared/sql.ts): a transaction cut there is rolled back;
 * - Fastify's own handler timeout answers 503 at the deadline itself when something else held the request (a
 *   dependency without a bound of its own); errors/handler.ts turns it into SERVICE_UNAVAILABLE.
 * The deadline is taken on at preValidation, once the body has been read: Node emits the body's events outside
 * the request's asynchronous context.
 */
export function registerRequestDeadline(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRoute', (route) => {
    route.handlerTimeout ??= route.config?.deadlineMs ?? timeoutMs;
  });
  app.addHook('preValidation', (request, reply, done) => {
    const ms = request.routeOptions.config.deadlineMs ?? timeoutMs;
    withDeadline(performance.now() - reply.elapsedTime + ms, done);
  });
}

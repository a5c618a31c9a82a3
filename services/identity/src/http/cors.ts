import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors';
import type { TrustedOrigins } from './origins';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route that hands the request over to another listener (the OpenID provider's endpoints), which answers
     * CORS itself (per client, not per trusted origin) and reads and checks the request's input itself.
     */
    handedOver?: boolean;
  }
}

/** What a browser on a trusted origin may send across origins (the console sends JSON with its cookies). */
const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = new Set(['content-type', 'authorization', 'x-request-id']);
const PREFLIGHT_MAX_AGE_SEC = '600';

/**
 * CORS with credentials for trusted origins only (a console on another trusted origin works with
 * cookies). An answer to a trusted Origin names that origin (never `*`, which credentials forbid); an untrusted
 * Origin gets no CORS header, so the browser keeps the answer from the page, and its preflight is refused with
 * INVALID_ORIGIN. Only the API under the base path takes part. The origin check (origin-check.ts) still guards
 * every state change on its own.
 */
export function registerCors(app: FastifyInstance, trusted: TrustedOrigins, basePath: string): void {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined || !request.url.startsWith(basePath) || request.routeOptions.config.handedOver)
      return done();
    reply.header('vary', 'Origin');
    const allowed = origin !== 'null' && trusted.has(origin);
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (!allowed) return done(preflight ? new ApiError('INVALID_ORIGIN') : undefined);
    reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true');
    if (!preflight) return done();
    const requested = String(request.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => ALLOWED_HEADERS.has(h));
    reply
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-max-age', PREFLIGHT_MAX_AGE_SEC)
      .header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    if (requested.length) reply.header('access-control-allow-headers', requested.join(', '));
    // Answered here: no route handles OPTIONS, and nothing past this hook applies to a preflight.
    reply.code(204).send();
  });
}

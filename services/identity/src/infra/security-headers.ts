import type { FastifyInstance } from 'fastify';

/**
 * SECURITY.md headers on every answer. `no-store` everywhere under the API: nearly every response carries a
 * session, a user or a token, and the few that do not gain nothing from caches. HTML pages set their own CSP.
 */
export function registerSecurityHeaders(app: FastifyInstance, docsPrefix: string): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-resource-policy', 'same-site');
    if (!request.url.startsWith(docsPrefix))
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  });
}

import type { FastifyInstance } from 'fastify';

/**
 * SECURITY.md headers on every answer. `no-store` everywhere under the API: nearly every response carries a
 * session, a user or a token, and the few that do not gain nothing from caches. HTML pages set their own CSP.
 */
export function registerSecurityHeaders(app: FastifyInstance, docsPrefix: string): void {
  const common = {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-site',
  };
  const api = { ...common, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" };
  // A callback hook, not an async one: this runs on every request, get-session's hot path included.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(docsPrefix) ? common : api);
    done();
  });
}

import type { FastifyInstance } from 'fastify';
import { CONSOLE_CSP, CONSOLE_PATH } from './console';

/** The hosted pages' path and Content-Security-Policy (infra/hosted-pages.ts), when they are served. */
export interface PagesHeaders {
  path: string;
  csp: string;
}

const common = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-site',
};
/** The headers of every answer under the API's base path (also sent by get-session's cookie fast path). */
export const API_HEADERS: Readonly<Record<string, string>> = {
  ...common,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/**
 * The security headers on every answer. `no-store` everywhere under the API: nearly every response carries a
 * session, a user or a token, and the few that do not gain nothing from caches. HTML pages set their own CSP.
 * The console's static files (infra/console.ts) get a CSP that lets its bundle run, and their own cache rules;
 * so do the hosted pages (infra/hosted-pages.ts), with a CSP of their own.
 */
export function registerSecurityHeaders(app: FastifyInstance, docsPrefix: string, pages?: PagesHeaders): void {
  const api = API_HEADERS;
  const consoleFiles = { ...common, 'cache-control': 'no-cache', 'content-security-policy': CONSOLE_CSP };
  const isConsole = (url: string) => url.startsWith(CONSOLE_PATH) && /^\/console($|[/?])/.test(url);
  const pagesFiles = pages && { ...common, 'cache-control': 'no-cache', 'content-security-policy': pages.csp };
  const isPages = (url: string) =>
    pages !== undefined && url.startsWith(pages.path) && /^($|[/?])/.test(url.slice(pages.path.length));
  // A callback hook, not an async one: this runs on every request, get-session's hot path included.
  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request;
    reply.headers(
      url.startsWith(docsPrefix)
        ? common
        : isConsole(url)
          ? consoleFiles
          : pagesFiles && isPages(url)
            ? pagesFiles
            : api,
    );
    done();
  });
}

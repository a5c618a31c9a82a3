import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionCookies } from '../../http/session-cookies';
import type { Metrics } from '../../infra/metrics';
import { unstorableField } from '../../infra/storable-text';

export interface CookieFastPathOptions {
  cookies: SessionCookies;
  /** The cookie plugin's parser (`app.parseCookie`), with its options. */
  parseCookie: (header: string) => Record<string, string | undefined>;
  now: () => number;
  /** The route's URL as Fastify knows it (`<basePath>/get-session`): the only URL answered here. */
  route: string;
  /** The headers every API answer carries (security-headers.ts). */
  headers: Readonly<Record<string, string>>;
  /** The request metrics, when they are on (the same series the onResponse hook fills). */
  metrics: Metrics | null;
  /**
   * The app's logger when successful lookups are logged (LOG_LOOKUPS): the request line Fastify would write
   * (infra/request-log.ts), at the same level and with the same fields. Null: they are not (the default).
   */
  log: FastifyBaseLogger | null;
  /** The request id header (Fastify's `requestIdHeader`) and the generator Fastify was given. */
  requestIdHeader: string;
  nextRequestId: () => string;
  /** A proxy is trusted: a request naming its client in X-Forwarded-For goes to Fastify, which resolves it. */
  trustProxy: boolean;
  /** False while the instance drains or closes: every request then takes Fastify's path and its rules. */
  open: () => boolean;
}

/**
 * get-session answered from a valid session-cache cookie before Fastify's routing and hooks: the hot path of
 * internal services, where a browser's own cookies vouch for the session (spec §9) and nothing is looked up.
 *
 * It answers only a request whose answer Fastify's path would give without touching any store: a plain
 * `GET <basePath>/get-session` (no query string, no body, no Origin, no Expect) whose signed token cookie and
 * cache cookie verify under the current secret and are usable now. Everything else returns false and goes to
 * Fastify unchanged, which then answers it (a stale or forged cookie, one signed under a previous secret, which
 * Fastify's path sends again, a query, CORS, a draining instance, text PostgreSQL cannot store).
 *
 * What Fastify's path adds to such an answer is done here the same way, from the same code where it can be: the
 * cookie parser and signer, the cache-cookie check (SessionCookies), the security headers, the get-session and
 * request-duration metrics, and the request's log line. test/api/session/cookie-fast-path.test.ts compares the
 * two paths over real HTTP, header for header and line for line.
 */
export function cookieFastPath(options: CookieFastPathOptions) {
  const { cookies, route, headers, metrics, log, requestIdHeader, nextRequestId } = options;
  // Fastify's logger is pino's; a logger without levels (logging off) writes no request lines.
  const levels = log as (FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }) | null;
  const requestLines = () => levels?.isLevelEnabled?.('info') === true;
  const histogramKey = `GET 200 ${route}`;
  const histogramLabels = () => ({ method: 'GET', route, status: '200' });

  return function answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || request.url !== route) return false;
    const h = request.headers;
    const cookieHeader = h.cookie;
    if (
      cookieHeader === undefined ||
      h.origin !== undefined ||
      h['content-length'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      h.expect !== undefined ||
      (options.trustProxy && h['x-forwarded-for'] !== undefined) ||
      !options.open()
    )
      return false;
    const start = performance.now();
    const parsed = options.parseCookie(cookieHeader);
    const token = cookies.tokenFrom(parsed);
    if (!token) return false;
    const cached = cookies.cacheFrom(parsed, token, options.now());
    if (!cached) return false;
    // The input check Fastify's path runs on every request (infra/validation.ts): it would answer 400.
    if (unstorableField(h, 'headers') || unstorableField(parsed, 'cookies')) return false;

    const logged = requestLines();
    const reqId = logged ? (h[requestIdHeader] as string | undefined) || nextRequestId() : '';
    response.writeHead(200, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(cached.json),
    });
    response.end(cached.json);
    metrics?.getSession.inc({ path: 'cookie' });
    const seconds = (performance.now() - start) / 1000;
    metrics?.http.observe(histogramKey, histogramLabels, seconds);
    if (logged)
      log!.info(
        {
          reqId,
          req: { method: 'GET', url: route, ip: request.socket.remoteAddress },
          res: { statusCode: 200 },
          responseTime: seconds * 1000,
        },
        'request completed',
      );
    return true;
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { CATALOGUE } from '../../errors/catalogue';
import { RETRY_AFTER_SEC } from '../../errors/handler';
import type { SerializeCookie, SessionCookies } from '../../http/session-cookies';
import type { Metrics } from '../../infra/metrics';
import { SLOW_LOOKUP_MS } from '../../infra/request-log';
import { unstorableField } from '../../infra/storable-text';
import { withDeadline } from '../../shared/request-deadline';
import type { SessionService } from './session.service';

export interface CookieFastPathOptions {
  cookies: SessionCookies;
  /** The cookie plugin's parser (`app.parseCookie`), with its options. */
  parseCookie: (header: string) => Record<string, string | undefined>;
  /** The cookie plugin's serializer (`app.serializeCookie`), for the cookies a looked-up session sends. */
  serializeCookie: SerializeCookie;
  /** The session lookup Fastify's route makes (Redis, else PostgreSQL, then settled). */
  sessions: Pick<SessionService, 'resolve'>;
  now: () => number;
  /** The route's URL as Fastify knows it (`<basePath>/get-session`): the only URL answered here. */
  route: string;
  /** The headers every API answer carries (security-headers.ts). */
  headers: Readonly<Record<string, string>>;
  /** The request metrics, when they are on (the same series the onResponse hook fills). */
  metrics: Metrics | null;
  /** The app's logger: the lines Fastify would write (infra/request-log.ts, errors/handler.ts), the same fields. */
  log: FastifyBaseLogger;
  /** LOG_LOOKUPS: a request line for every answer, not only for failures and slow ones. */
  logLookups: boolean;
  /** The request id header (Fastify's `requestIdHeader`) and the generator Fastify was given. */
  requestIdHeader: string;
  nextRequestId: () => string;
  /** A proxy is trusted: a request naming its client in X-Forwarded-For goes to Fastify, which resolves it. */
  trustProxy: boolean;
  /** REQUEST_TIMEOUT_MS: the deadline a lookup that reaches PostgreSQL runs under (http/request-deadline.ts). */
  deadlineMs: number;
  /** False while the instance drains or closes: every request then takes Fastify's path and its rules. */
  open: () => boolean;
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * get-session answered before Fastify's routing and hooks: the hot path of internal services and browsers.
 *
 * It takes only a plain `GET <basePath>/get-session` (no query string, no body, no Origin, no Expect, nothing a
 * trusted proxy would rewrite) whose token verifies under the current secret, and answers it as Fastify's route
 * (get-session.ts) would, with the same status, headers, body, cookies, metrics and log lines:
 * - (a) a session-cache cookie valid for the token now: answered from the cookie, synchronously, nothing looked up
 *   (decisions/0001);
 * - (b) otherwise (a token cookie without a usable cache cookie, or `Authorization: Bearer`): the same lookup the
 *   route makes (`SessionService.resolve`: Redis, else PostgreSQL, within the request deadline), answered here when
 *   it finds a session: the body, and for a browser a fresh cache cookie (both cookies when the session was
 *   renewed). PostgreSQL out of reach answers 503 as the error handler does.
 * Anything else goes to Fastify unchanged (`fallback`), before a byte is written: a stale, forged or rotated
 * cookie, text PostgreSQL cannot store, a draining instance, and a lookup that finds no session (Fastify's route
 * clears the cookies) or fails unexpectedly. test/api/session/cookie-fast-path.test.ts compares the two paths over
 * real HTTP, header for header and line for line.
 */
export function cookieFastPath(options: CookieFastPathOptions) {
  const { cookies, route, metrics, requestIdHeader, nextRequestId } = options;
  const levels = options.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  const histogramLabels = (status: string) => () => ({ method: 'GET', route, status });
  const ok = { key: `GET 200 ${route}`, labels: histogramLabels('200') };
  const unavailable = { key: `GET 503 ${route}`, labels: histogramLabels('503') };
  const unavailableBody = JSON.stringify({
    code: 'SERVICE_UNAVAILABLE',
    message: CATALOGUE.SERVICE_UNAVAILABLE.message,
  });

  /** The request id Fastify would give it, and the log line Fastify would write when it is answered. */
  function logAnswer(request: IncomingMessage, status: number, startedAt: number): void {
    const responseTime = performance.now() - startedAt;
    const quiet = status < 400 && !options.logLookups && responseTime < SLOW_LOOKUP_MS;
    if (quiet || levels.isLevelEnabled?.('info') !== true) return;
    const reqId = (request.headers[requestIdHeader] as string | undefined) || nextRequestId();
    options.log.info(
      {
        reqId,
        req: { method: 'GET', url: route, ip: request.socket.remoteAddress },
        res: { statusCode: status },
        responseTime,
      },
      'request completed',
    );
  }

  function write(response: ServerResponse, status: number, body: string, extra: Record<string, unknown>): void {
    response.writeHead(status, {
      ...options.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...extra,
    });
    response.end(body);
  }

  /** (b): the lookup Fastify's route makes, answered here when it finds a session. */
  function lookUp(
    request: IncomingMessage,
    response: ServerResponse,
    fallback: Listener,
    token: string,
    viaCookie: boolean,
    carried: boolean,
    startedAt: number,
  ): void {
    const now = options.now();
    withDeadline(startedAt + options.deadlineMs, () =>
      options.sessions.resolve(token, { source: 'cache', refresh: true }),
    ).then(
      (resolved) => {
        // The entry's head and body answer: the session is not parsed out of its body here.
        const { entry } = resolved;
        if (!entry) return fallback(request, response);
        const setCookie = viaCookie
          ? cookies.lookupCookies(
              { token, rememberMe: entry.head.rememberMe, expiresAt: entry.head.expiresAt },
              resolved.json,
              now,
              resolved.renewed,
              carried,
              options.serializeCookie,
            )
          : [];
        write(response, 200, resolved.json, setCookie.length > 0 ? { 'set-cookie': setCookie } : {});
        metrics?.getSession.inc({ path: resolved.from === 'redis' ? 'redis' : 'database' });
        metrics?.http.observe(ok.key, ok.labels, (performance.now() - startedAt) / 1000);
        logAnswer(request, 200, startedAt);
      },
      (error: unknown) => {
        if (!isDatabaseUnavailable(error) || response.headersSent) return fallback(request, response);
        // As errors/handler.ts answers an outage: one warning line, the catalogue's 503 with Retry-After.
        const reqId = (request.headers[requestIdHeader] as string | undefined) || nextRequestId();
        options.log.warn(
          { reqId, cause: (error as { code?: string }).code ?? (error as Error).message },
          'database unavailable',
        );
        write(response, 503, unavailableBody, { 'retry-after': RETRY_AFTER_SEC });
        metrics?.http.observe(unavailable.key, unavailable.labels, (performance.now() - startedAt) / 1000);
        logAnswer(request, 503, startedAt);
      },
    );
  }

  return function answer(request: IncomingMessage, response: ServerResponse, fallback: Listener): boolean {
    if (request.method !== 'GET' || request.url !== route) return false;
    const h = request.headers;
    if (
      h.origin !== undefined ||
      h['content-length'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      h.expect !== undefined ||
      (options.trustProxy && h['x-forwarded-for'] !== undefined) ||
      !options.open()
    )
      return false;
    const startedAt = performance.now();
    const cookieHeader = h.cookie;
    const parsed = cookieHeader === undefined ? {} : options.parseCookie(cookieHeader);
    const viaCookie = parsed[cookies.tokenName] !== undefined;
    const verified = cookies.presentedIn(parsed, h.authorization);
    // A forged cookie is cleared, one signed under a previous secret signed again: Fastify's path does both.
    if (!verified || (viaCookie && verified.renew)) return false;
    // The input check Fastify's path runs on every request (infra/validation.ts): it would answer 400.
    if (unstorableField(h, 'headers') || unstorableField(parsed, 'cookies')) return false;
    const cached = viaCookie ? cookies.cacheFrom(parsed, verified.token, options.now()) : null;
    if (!cached) {
      lookUp(request, response, fallback, verified.token, viaCookie, parsed[cookies.dataName] !== undefined, startedAt);
      return true;
    }
    write(response, 200, cached.json, {});
    metrics?.getSession.inc({ path: 'cookie' });
    metrics?.http.observe(ok.key, ok.labels, (performance.now() - startedAt) / 1000);
    logAnswer(request, 200, startedAt);
    return true;
  };
}

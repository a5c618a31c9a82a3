import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context';
import { frameworkError, registerErrorHandler } from './errors/handler';
import { registerCaptcha } from './features/captcha';
import { cookieFastPath } from './features/session';
import { registerBodylessCalls } from './http/bodyless-calls';
import { registerCors } from './http/cors';
import { registerDrainClose } from './http/drain';
import { registerExpectContinue } from './http/expect-continue';
import { registerLingeringClose } from './http/lingering-close';
import { registerOriginCheck } from './http/origin-check';
import { registerRequestDeadline } from './http/request-deadline';
import { RoutePolicies } from './http/route-policy';
import { registerConsole } from './infra/console';
import { hostedPagesCsp, registerHostedPages } from './infra/hosted-pages';
import { loggerOptions } from './infra/logger';
import { registerMetrics } from './infra/metrics-route';
import { docsPath, registerOpenApi } from './infra/openapi';
import { registerRateLimit } from './infra/rate-limit';
import { RequestLog } from './infra/request-log';
import { API_HEADERS, registerSecurityHeaders } from './infra/security-headers';
import { registerValidation } from './infra/validation';

/** A hop count trusts that many proxies nearest to us; a list trusts those addresses/CIDRs; false trusts none. */
function trustProxyOption(value: AppContext['config']['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** The process's own pino logger (src/main.ts), so request lines and start-up notes share one stream. */
  loggerInstance?: FastifyBaseLogger;
  /** Answer get-session before routing when it can (default; features/session/cookie-fast-path.ts); false: Fastify. */
  cookieFastPath?: boolean;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;
/** Answers a request before Fastify (true), or leaves it to Fastify (false); may hand it to `fallback` later. */
type FastPath = (request: IncomingMessage, response: ServerResponse, fallback: RequestListener) => boolean;

const REQUEST_ID_HEADER = 'x-request-id';
/** Request ids as Fastify makes them by default (`req-<n>` in base 36), shared with the cookie fast path. */
function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}

/** The composition root: plugins in order, then the feature route tables under the base path. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const nextRequestId = requestIds();
  // The HTTP server Fastify would make (lib/server.js: the same timeouts), with one step before Fastify's
  // handler: get-session's cookie fast path, bound once the app is built. Until then every request goes on.
  let fastPath: FastPath | null = null;
  const serverFactory = (handler: RequestListener, opts: FastifyServerOptions) => {
    const server = createServer((request, response) => {
      if (fastPath?.(request, response, handler)) return;
      handler(request, response);
    });
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout ?? 0);
    if (opts.maxRequestsPerSocket) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
  const app = Fastify({
    serverFactory,
    genReqId: nextRequestId,
    logController: new RequestLog({ logLookups: config.logLookups }),
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? loggerOptions(config) }),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    requestIdHeader: REQUEST_ID_HEADER,
    // At close: idle connections are closed, requests in flight finish, and one that still arrives on an open
    // connection is served (with `Connection: close`), not refused (http/drain.ts).
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 512 },
    // Refused before any hook ran, so the security headers are set here (a JSON answer: the API's).
    frameworkErrors: (error, request, reply) => frameworkError(error, request, reply.headers(API_HEADERS)),
    ajv: { customOptions: { removeAdditional: false } },
  });
  // Only JSON bodies: a text/plain or form POST (a "simple" request that skips CORS preflight) is refused.
  app.removeContentTypeParser(['text/plain']);
  const validation = registerValidation(app);
  registerErrorHandler(app);
  // Each route's declared policies (API keys, rate limit, bot check), gathered for the hosted pages' config.json.
  new RoutePolicies(config.basePath).collect(app);
  // Before any other onRoute hook (rate limits, OpenAPI), so the GET twins get those hooks once, as routes of their own.
  registerBodylessCalls(app, validation, config.basePath);
  registerRequestDeadline(app, config.requestTimeoutMs);
  registerLingeringClose(app);
  registerDrainClose(app, ctx.lifecycle);
  registerExpectContinue(app);
  const pages = config.hostedPages;
  registerSecurityHeaders(
    app,
    docsPath(config),
    pages.enabled ? { path: pages.path, csp: hostedPagesCsp(config) } : undefined,
  );
  await app.register(cookie, { secret: ctx.web.cookies.signer, hook: 'onRequest' });
  registerCors(app, ctx.web.trusted, config.basePath);
  registerOriginCheck(app, ctx.web.trusted, config.advanced.disableOriginCheck);
  if (config.metricsEnabled) registerMetrics(app, ctx.metrics);
  await registerRateLimit(app, config, ctx.redis, ctx.metrics);
  await registerOpenApi(app, config);
  await registerConsole(app, config);
  await registerHostedPages(app, config, ctx.web.trusted);

  await app.register(
    async (api) => {
      if (ctx.features.captcha) registerCaptcha(api, ctx.features.captcha, config.basePath);
      for (const feature of ctx.features.routes)
        await api.register((scope) => feature.routes(scope, ctx.web), feature.prefix ? { prefix: feature.prefix } : {});
    },
    { prefix: config.basePath },
  );
  for (const feature of ctx.features.routes)
    if (feature.rootRoutes) await app.register((scope) => feature.rootRoutes!(scope, ctx.web));
  if (options.cookieFastPath !== false) {
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    fastPath = cookieFastPath({
      cookies: ctx.web.cookies,
      parseCookie: (header) => app.parseCookie(header),
      // Our options never say `secure: 'auto'` (session-cookies.ts decides it from PUBLIC_URL).
      serializeCookie: (name, value, cookieOptions) =>
        app.serializeCookie(name, value, cookieOptions as Parameters<typeof app.serializeCookie>[2]),
      sessions: ctx.features.session.sessions,
      now: ctx.clock.now,
      route: `${config.basePath}/get-session`,
      headers: API_HEADERS,
      metrics: config.metricsEnabled ? ctx.metrics : null,
      log: app.log,
      logLookups: config.logLookups,
      requestIdHeader: REQUEST_ID_HEADER,
      nextRequestId,
      trustProxy: config.trustProxy !== false,
      deadlineMs: config.requestTimeoutMs,
      open: () => !closing && !ctx.lifecycle.draining,
    });
  }
  return app;
}

import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context';
import { deriveKey } from './crypto/keys';
import { registerErrorHandler } from './errors/handler';
import { accountRoutes } from './features/account/account.routes';
import { deletionRoutes } from './features/account/deletion.routes';
import { emailRoutes } from './features/account/email.routes';
import { passwordRoutes } from './features/account/password.routes';
import { adminRoutes } from './features/admin';
import { apiKeyFeature } from './features/api-key';
import { registerCaptcha } from './features/captcha';
import { introspectionRoutes } from './features/introspection/introspection.routes';
import { tokenRoutes } from './features/jwt/token.routes';
import { organizationFeature } from './features/organization';
import { sessionRoutes } from './features/session/session.routes';
import { socialFeature } from './features/social';
import { healthRoutes } from './features/system/health.routes';
import { systemRoutes } from './features/system/system.routes';
import { registerBodylessCalls } from './http/bodyless-calls';
import { registerCors } from './http/cors';
import { registerExpectContinue } from './http/expect-continue';
import { registerLingeringClose } from './http/lingering-close';
import { registerOriginCheck } from './http/origin-check';
import { registerConsole } from './infra/console';
import { loggerOptions } from './infra/logger';
import { registerMetrics } from './infra/metrics-route';
import { docsPath, registerOpenApi } from './infra/openapi';
import { registerRateLimit } from './infra/rate-limit';
import { registerSecurityHeaders } from './infra/security-headers';
import { registerValidation } from './infra/validation';

/** A hop count trusts that many proxies nearest to us; a list trusts those addresses/CIDRs; false trusts none. */
function trustProxyOption(value: AppContext['config']['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** The process's own pino logger (src/main.ts), so request lines and start-up notes share one stream. */
  loggerInstance?: FastifyBaseLogger;
}

/** The composition root: plugins in order, then the feature route tables under the base path. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? loggerOptions(config) }),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 512 },
    ajv: { customOptions: { removeAdditional: false } },
  });
  // Only JSON bodies: a text/plain or form POST (a "simple" request that skips CORS preflight) is refused.
  app.removeContentTypeParser(['text/plain']);
  const validation = registerValidation(app);
  registerErrorHandler(app);
  // Before any other onRoute hook (rate limits, OpenAPI), so the GET twins get those hooks once, as routes of their own.
  registerBodylessCalls(app, validation, config.basePath);
  registerLingeringClose(app);
  registerExpectContinue(app);
  registerSecurityHeaders(app, docsPath(config));
  await app.register(cookie, { secret: deriveKey(config.secret, 'cookie'), hook: 'onRequest' });
  registerCors(app, ctx.trusted, config.basePath);
  registerOriginCheck(app, ctx.trusted, config.advanced.disableOriginCheck);
  if (config.metricsEnabled) registerMetrics(app, ctx.metrics);
  await registerRateLimit(app, config, ctx.redis, ctx.metrics);
  await registerOpenApi(app, config);
  await registerConsole(app, config);

  await app.register(
    async (api) => {
      if (ctx.captcha) registerCaptcha(api, ctx.captcha, config.basePath);
      await api.register(healthRoutes, ctx);
      await api.register(systemRoutes);
      await api.register(sessionRoutes, ctx);
      await api.register(accountRoutes, ctx);
      await api.register(passwordRoutes, ctx);
      await api.register(emailRoutes, ctx);
      await api.register(deletionRoutes, ctx);
      await api.register(tokenRoutes, ctx);
      await api.register(introspectionRoutes, ctx);
      await api.register((scope) => socialFeature(scope, ctx));
      if (config.features.admin) await api.register(adminRoutes, ctx);
      await api.register((scope) => apiKeyFeature(scope, ctx));
      if (config.features.organization)
        await api.register((scope) => organizationFeature(scope, ctx), { prefix: '/organization' });
    },
    { prefix: config.basePath },
  );
  return app;
}

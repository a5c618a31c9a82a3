import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { rateLimitRule } from '../http/route-policy';
import type { Metrics } from './metrics';
import { fallbackStoreFor } from './rate-limit-store';

/** IPv4 as is; IPv6 by its /64, since one client usually holds a whole /64. */
export function clientKey(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * A global limit plus stricter per-route rules, counted in Redis when configured (atomic across instances; in
 * process while Redis is away) and in process otherwise. A route's rule is the operator's for its path
 * (`rateLimit.rules`, relative to the base path) or else the one the route declares (`config.policy.rateLimit`,
 * http/route-policy.ts); a route exempt from limits (`config.rateLimit: false`) stays exempt. Rules attach by
 * route, so path aliases (`//x`, `/x/`) share a bucket.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: Redis | null,
  metrics: Metrics,
): Promise<void> {
  if (!config.rateLimit.enabled) return;
  const base = config.basePath;
  const configured = config.rateLimit.rules;
  app.addHook('onRoute', (route) => {
    const path = route.url.startsWith(base) ? route.url.slice(base.length) : route.url;
    const rule = Object.hasOwn(configured, path) ? configured[path] : rateLimitRule(route.config?.policy);
    if (!rule || route.config?.rateLimit === false) return;
    // A copy: routes may share one options object, and the operator's rule for one path must not reach the others.
    route.config = { ...route.config, rateLimit: { max: rule.max, timeWindow: rule.windowSec * 1000 } };
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.global.max,
    timeWindow: config.rateLimit.global.windowSec * 1000,
    // Redis while it answers, in-process counters while it does not (rate-limit-store.ts); never off.
    store: redis ? fallbackStoreFor(redis, `${config.redisPrefix}rate-limit:`) : undefined,
    skipOnError: false,
    keyGenerator: (request: FastifyRequest) => clientKey(request.ip),
    errorResponseBuilder: () => new ApiError('RATE_LIMITED'),
    onExceeded: (request: FastifyRequest) =>
      metrics.rateLimited.inc({ route: request.routeOptions.url ?? 'unmatched' }),
  });
}

import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { SERVICE_PERMISSION } from '../access';
import { safeEqual } from '../crypto/safe-equal';
import { ApiError } from '../errors';
import type { ApiKeyView } from '../shared/views';
import type { WebParts } from './web-parts';

/** What the service credential check reads: the key header's settings and API keys. */
export type ServiceGuardParts = Pick<WebParts, 'config' | 'apiKeys'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key that authenticated this request (a service key, or a key standing for its owner's session). */
    apiKey?: ApiKeyView;
    /** Set when the static SERVICE_API_KEY authenticated this request (the audit trail's actor). */
    staticServiceCredential?: true;
  }
}

/**
 * Server-only routes (for internal services, never browsers): the key header (`apiKey.header`, default `x-api-key`) must carry the service
 * credential: an API key holding `{ service: ['act'] }`, or the static SERVICE_API_KEY (bootstrapping
 * and small deployments; compared in constant time). A browser never holds either, so a request that looks like
 * one (an Origin or Fetch-Metadata header) is refused even with a key: a leaked key is not usable from a page.
 * A service key is verified like any key: enabled, not expired, within its rate limit and uses (one is spent).
 */
export async function assertServiceCredential(ctx: ServiceGuardParts, request: FastifyRequest, reply?: FastifyReply) {
  const key = request.headers[ctx.config.apiKey.header];
  const browser = request.headers.origin !== undefined || request.headers['sec-fetch-mode'] !== undefined;
  if (browser || typeof key !== 'string') throw new ApiError('SERVER_ONLY');
  const { serviceApiKey } = ctx.config;
  if (serviceApiKey !== undefined && safeEqual(key, serviceApiKey)) {
    request.staticServiceCredential = true;
    return;
  }
  const result = await ctx.apiKeys.verify(key, SERVICE_PERMISSION);
  if (result.valid) {
    request.apiKey = result.key;
    return;
  }
  // Unknown keys and keys without the service permission are no service credential; a real service key that is
  // disabled, expired, out of uses or rate limited answers why.
  if (result.code === 'INVALID_API_KEY' || result.code === 'KEY_NOT_FOUND') throw new ApiError('SERVER_ONLY');
  if (result.tryAgainIn !== undefined) reply?.header('retry-after', Math.ceil(result.tryAgainIn / 1000));
  throw new ApiError(result.code);
}

export function requireServiceCredential(ctx: ServiceGuardParts): preHandlerHookHandler {
  return async (request, reply) => assertServiceCredential(ctx, request, reply);
}

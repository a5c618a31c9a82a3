import type { preHandlerHookHandler } from 'fastify';
import type { Config } from '../config';
import { safeEqual } from '../crypto/signed';
import { ApiError } from '../errors';

/**
 * DESIGN §3 server-only routes: the `x-api-key` header must carry the service credential (SERVICE_API_KEY,
 * compared in constant time). A browser never holds it, so browser clients are refused; a request that looks
 * like one (an Origin or Fetch-Metadata header) is refused even with a key, so a leaked key is not usable from
 * a page. API keys with a service permission will also be accepted here (issue 9).
 */
export function requireServiceCredential(config: Config): preHandlerHookHandler {
  return async (request) => {
    const key = request.headers['x-api-key'];
    const browser = request.headers.origin !== undefined || request.headers['sec-fetch-mode'] !== undefined;
    const valid = typeof key === 'string' && config.serviceApiKey !== undefined && safeEqual(key, config.serviceApiKey);
    if (browser || !valid) throw new ApiError('SERVER_ONLY');
  };
}

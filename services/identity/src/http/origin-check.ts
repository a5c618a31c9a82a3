import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import type { TrustedOrigins } from './origins';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Server-only routes that refuse browsers by other means (the service credential). */
    skipOriginCheck?: boolean;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cross-site request defence (docs/SPEC.md §5, docs/security.md): on state-changing methods an Origin, when present, must be
 * trusted ("null" included: sandboxed frames), which also stops login CSRF on sign-in and sign-up. Without an
 * Origin, a request carrying cookies must show a trusted Referer. Requests without cookies or Origin
 * (server-to-server, Bearer) pass. Fetch-Metadata `cross-site` is refused outright.
 */
export function registerOriginCheck(app: FastifyInstance, trusted: TrustedOrigins, disabled: boolean): void {
  if (disabled) return;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!UNSAFE.has(request.method)) return done(); // a callback hook: GETs (get-session) pay no promise
    done(checkOrigin(request, trusted));
  });
}

function checkOrigin(request: FastifyRequest, trusted: TrustedOrigins): ApiError | undefined {
  if (request.routeOptions.config.skipOriginCheck) return;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin === 'null' || origin === '') return new ApiError('MISSING_OR_NULL_ORIGIN');
    return trusted.has(origin) ? undefined : new ApiError('INVALID_ORIGIN');
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') return new ApiError('INVALID_ORIGIN');
  if (!request.headers.cookie) return;
  const referer = request.headers.referer;
  if (!referer) return new ApiError('MISSING_OR_NULL_ORIGIN');
  return trusted.has(referer) ? undefined : new ApiError('INVALID_ORIGIN');
}

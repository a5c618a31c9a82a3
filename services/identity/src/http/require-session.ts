import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { ApiError } from '../errors';
import type { SessionWithUser } from '../shared/views';
import type { WebParts } from './web-parts';

/** What the session guards read: the cookies, the session lookup, API keys, and the key header's settings. */
export type SessionGuardParts = Pick<WebParts, 'cookies' | 'sessions' | 'apiKeys' | 'config'>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by requireSession: the caller's session and user, read from PostgreSQL; for an API key (no session
     * token), a session made for this request only (`request.apiKey` is then set).
     */
    auth: SessionWithUser;
  }
}

/**
 * Routes that change something resolve the session from PostgreSQL, never from a cache, so a revocation
 * (sign-out, revoke, ban, password change, deletion) takes effect on them at once.
 */
async function authenticate(ctx: SessionGuardParts, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = ctx.cookies.readToken(request);
  if (!token) return authenticateWithApiKey(ctx, request, reply);
  const resolved = await ctx.sessions.resolve(token, { source: 'database', refresh: false });
  if (!resolved.current) {
    if (resolved.expired) ctx.cookies.clear(reply);
    throw new ApiError('UNAUTHORIZED');
  }
  request.auth = resolved.current;
}

/**
 * better-auth's sessions for API keys: with no session token, a key in the configured header stands for a session
 * of its owner, made for this request and never stored (one use of the key is spent, its rate limit counted).
 */
async function authenticateWithApiKey(
  ctx: SessionGuardParts,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const presented = request.headers[ctx.config.apiKey.header];
  if (typeof presented !== 'string' || !ctx.config.apiKey.sessionForApiKeys) throw new ApiError('UNAUTHORIZED');
  // The route says whether a key may stand for a session there (its `config.policy`, docs/api-keys.md).
  if (request.routeOptions.config.policy?.apiKeys === 'refused') throw new ApiError('API_KEY_SESSION_NOT_ALLOWED');
  const result = await ctx.apiKeys.sessionFor(presented, clientInfo(request));
  if (!result.valid) {
    if (result.tryAgainIn !== undefined) reply.header('retry-after', Math.ceil(result.tryAgainIn / 1000));
    throw new ApiError(result.code);
  }
  request.auth = result.session;
  request.apiKey = result.key;
}

/**
 * The caller's session when there is a valid one (routes that also serve anonymous callers), else null. API keys
 * are not read here: on these routes the key header carries the service credential (has-permission).
 */
export async function optionalSession(
  ctx: SessionGuardParts,
  request: FastifyRequest,
): Promise<SessionWithUser | null> {
  const token = ctx.cookies.readToken(request);
  if (!token) return null;
  return (await ctx.sessions.resolve(token, { source: 'database', refresh: false })).current;
}

export function requireSession(ctx: SessionGuardParts): preHandlerHookHandler {
  return (request, reply) => authenticate(ctx, request, reply);
}

/** spec §5: sensitive actions need a session created within the fresh age. */
export function requireFreshSession(ctx: SessionGuardParts): preHandlerHookHandler {
  return async (request, reply) => {
    await authenticate(ctx, request, reply);
    if (!ctx.sessions.isFresh(request.auth.session)) throw new ApiError('SESSION_NOT_FRESH');
  };
}

export const clientInfo = (request: FastifyRequest) => ({
  ipAddress: request.ip ?? null,
  userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
});

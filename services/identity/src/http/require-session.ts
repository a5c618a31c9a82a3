import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import type { SessionWithUser } from '../shared/views';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireSession: the caller's session and user, read from PostgreSQL. */
    auth: SessionWithUser;
  }
}

/**
 * Routes that change something resolve the session from PostgreSQL, never from a cache, so a revocation
 * (sign-out, revoke, ban, password change, deletion) takes effect on them at once.
 */
async function authenticate(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = ctx.cookies.readToken(request);
  if (!token) throw new ApiError('UNAUTHORIZED');
  const resolved = await ctx.sessions.resolve(token, { source: 'database', refresh: false });
  if (!resolved.current) {
    if (resolved.expired) ctx.cookies.clear(reply);
    throw new ApiError('UNAUTHORIZED');
  }
  request.auth = resolved.current;
}

/** The caller's session when there is a valid one (routes that also serve anonymous callers), else null. */
export async function optionalSession(ctx: AppContext, request: FastifyRequest): Promise<SessionWithUser | null> {
  const token = ctx.cookies.readToken(request);
  if (!token) return null;
  return (await ctx.sessions.resolve(token, { source: 'database', refresh: false })).current;
}

export function requireSession(ctx: AppContext): preHandlerHookHandler {
  return (request, reply) => authenticate(ctx, request, reply);
}

/** spec §5: sensitive actions need a session created within the fresh age. */
export function requireFreshSession(ctx: AppContext): preHandlerHookHandler {
  return async (request, reply) => {
    await authenticate(ctx, request, reply);
    if (!ctx.sessions.isFresh(request.auth.session)) throw new ApiError('SESSION_NOT_FRESH');
  };
}

export const clientInfo = (request: FastifyRequest) => ({
  ipAddress: request.ip ?? null,
  userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
});

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
 * Routes an API key may not use as a session (docs/api-keys.md): credentials, email and deletion (account
 * takeover needs a person), linking and unlinking social accounts, the session list and revocations (the key's
 * session is not a stored one), and the calls that change or make sessions (impersonation, active organization,
 * a /token JWT). Paths are relative to the base path.
 */
export const API_KEY_REFUSED_ROUTES: ReadonlySet<string> = new Set([
  '/change-password',
  '/set-password',
  '/change-email',
  '/delete-user',
  '/delete-user/callback',
  '/list-sessions',
  '/revoke-session',
  '/revoke-sessions',
  '/revoke-other-sessions',
  '/admin/impersonate-user',
  '/admin/stop-impersonating',
  '/organization/set-active',
  '/link-social', // linking needs the browser that finishes the provider's flow; unlinking is account takeover's half
  '/unlink-account',
  '/token', // a JWT names a stored session (sid), which a key's session is not
  // a second factor is the person's: a key never enrols, removes or reads one (docs/two-factor.md)
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  // nor registers, renames or removes a passkey (docs/two-factor.md "Passkeys")
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
  '/passkey/update-passkey',
  '/passkey/delete-passkey',
]);

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
  const route = request.routeOptions.url?.slice(ctx.config.basePath.length) ?? '';
  if (API_KEY_REFUSED_ROUTES.has(route)) throw new ApiError('API_KEY_SESSION_NOT_ALLOWED');
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

import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../errors';
import { requireSession } from '../../http/require-session';
import type { SessionWithUser } from '../../shared/views';

/** When a call changed the caller's active organization, the browser gets a fresh session-cache cookie. */
export function reissue(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session?: SessionWithUser | null,
) {
  if (session) ctx.cookies.reissueCache(request, reply, session, ctx.clock.now());
}

/** get-invitation and list-invitations answer a missing session with spec §8 "Not authenticated" (401). */
export function requireAuthenticated(ctx: AppContext): preHandlerHookHandler {
  const session = requireSession(ctx);
  return async function (this: unknown, request, reply) {
    try {
      await (session as (req: FastifyRequest, rep: FastifyReply) => Promise<void>)(request, reply);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'UNAUTHORIZED') throw new ApiError('NOT_AUTHENTICATED');
      throw error;
    }
  };
}

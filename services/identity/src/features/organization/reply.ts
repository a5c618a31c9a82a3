import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Web } from '../../http/web';
import type { SessionWithUser } from '../../shared/views';

/** When a call changed the caller's active organization, the browser gets a fresh session-cache cookie. */
export function reissue(
  ctx: Pick<Web, 'cookies' | 'clock'>,
  request: FastifyRequest,
  reply: FastifyReply,
  session?: SessionWithUser | null,
) {
  if (session) ctx.cookies.reissueCache(request, reply, session, ctx.clock.now());
}

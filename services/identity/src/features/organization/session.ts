import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { ApiError } from '../../errors';
import type { Web } from '../../http/web';

/**
 * The organization feature's session requirement, shared by every route under organization/ (index.ts hands it
 * to each route table): a call without a session answers spec §8 "Not authenticated" (401), as better-auth's
 * organization plugin does, instead of the generic Unauthorized. API key refusals keep their own codes.
 */
export function requireOrganizationSession(web: Web): preHandlerHookHandler {
  const session = web.requireSession as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  return async function organizationSession(this: unknown, request, reply) {
    try {
      await session(request, reply);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'UNAUTHORIZED') throw new ApiError('NOT_AUTHENTICATED');
      throw error;
    }
  };
}

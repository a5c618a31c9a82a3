import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../errors';
import { requireSession } from '../../http/require-session';
import type { OrganizationFeature } from './service';

/**
 * The organization feature's session requirement, shared by every route under organization/ (index.ts hands it
 * to each route table): a call without a session answers spec §8 "Not authenticated" (401), as better-auth's
 * organization plugin does, instead of the generic Unauthorized. API key refusals keep their own codes.
 */
export function requireOrganizationSession(ctx: AppContext): preHandlerHookHandler {
  const session = requireSession(ctx) as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  return async function organizationSession(this: unknown, request, reply) {
    try {
      await session(request, reply);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'UNAUTHORIZED') throw new ApiError('NOT_AUTHENTICATED');
      throw error;
    }
  };
}

/** What every organization route table is registered with. */
export interface OrganizationRouteOptions {
  ctx: AppContext;
  org: OrganizationFeature;
  /** requireOrganizationSession, built once for the feature. */
  session: preHandlerHookHandler;
}

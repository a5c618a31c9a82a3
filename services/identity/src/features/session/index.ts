import type { FeatureRoutes } from '../../http/web';
import type { SessionDeps } from './deps';
import { SessionRepository } from './repository';
import { sessionRoutes } from './session.routes';
import { SessionService } from './session.service';

export { type CookieFastPathOptions, cookieFastPath } from './cookie-fast-path';
export type { SessionDeps } from './deps';
export type {
  CreateSessionInput,
  Resolved,
  ResolveOptions,
  SessionEnd,
  SessionService,
} from './session.service';

/**
 * Sessions (docs/SPEC.md §5, docs/sessions.md): create, resolve (cookie cache → Redis → PostgreSQL), renew, list
 * and revoke. Its route table:
 *
 *   session.routes   get-session · sign-out · list-sessions · revoke-session · revoke-sessions · revoke-other-sessions
 *
 * Other features end sessions and change what they hold through `sessions`; the sign-in seam makes them. The
 * Redis copies and their fences are session-cache.ts.
 */
export interface SessionFeature extends FeatureRoutes {
  sessions: SessionService;
}

export function createSessionFeature(deps: SessionDeps): SessionFeature {
  const sessions = new SessionService(new SessionRepository(deps.sql), deps.cache, deps.config, deps.clock, deps.audit);
  return {
    sessions,
    async routes(app, web) {
      await app.register(sessionRoutes, { ...web, sessions });
    },
  };
}

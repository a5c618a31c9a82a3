import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryOf } from '../../shared/schemas';
import type { SessionWithUser } from '../../shared/views';
import type { GetSession } from './schemas';
import type { Resolved } from './session.service';
import type { SessionWeb } from './web';

/**
 * GET get-session, the hot path of internal services, as one pipeline of named steps (docs/architecture.md, "The
 * session lookup"). A plain browser request with valid cookies never gets here: the cookie fast path
 * (cookie-fast-path.ts) answers it before routing, from the same cookie step.
 *
 *   1. token     the signed token cookie, or `Authorization: Bearer`; none (or a forged cookie): null
 *   2. cookie    the signed session-cache cookie, when it matches the token and is within its max age; skipped
 *                when the token cookie was signed under a previous secret (rotation), so step 6 signs it again
 *   3. redis     the cached session (the reads of one event-loop turn share one MGET)      } SessionService
 *   4. database  the session joined with its user (the lookups of one turn share one query) } .resolve
 *   5. settle    expired or banned: deleted; past its update age: renewed; the Redis entry filled  }
 *   6. cookies   none: cleared; renewed or signed under a previous secret: both cookies again; else a fresh
 *                cache cookie (not again within the second it is reused, to a request that carried none)
 */
export type GetSessionQuery = QueryOf<typeof GetSession>;

type Answer = { json: string } | null;

export function getSessionPipeline(ctx: SessionWeb) {
  const { cookies, metrics, sessions, clock } = ctx;

  /** 1. The presented token; a forged or tampered token cookie is cleared. */
  function token(request: FastifyRequest, reply: FastifyReply, viaCookie: boolean) {
    const presented = cookies.presented(request);
    if (!presented && viaCookie) cookies.clear(reply);
    return presented;
  }

  /** 2. The session-cache cookie's body, when it is valid for `presented` now. */
  function fromCookie(request: FastifyRequest, presented: string, now: number): Answer {
    return cookies.readCache(request, presented, now);
  }

  /** 3–5. Redis, else PostgreSQL, then settled (SessionService.resolve). */
  function resolve(presented: string, query: GetSessionQuery): Promise<Resolved> {
    return sessions.resolve(presented, { source: 'cache', refresh: !query.disableRefresh });
  }

  /** 6. The browser's cookies after a lookup; `resign`: its token cookie was signed under a previous secret. */
  function setCookies(
    reply: FastifyReply,
    current: SessionWithUser | null,
    resolved: Resolved,
    now: number,
    resign: boolean,
    carried: boolean,
  ): void {
    if (!current) cookies.clear(reply);
    else if (resolved.renewed || resign) cookies.set(reply, current, now, resolved.json);
    else cookies.lookupCache(reply, current.session, resolved.json, now, carried);
  }

  const countPath = (path: 'none' | 'cookie' | 'redis' | 'database') => metrics.getSession.inc({ path });

  /** The answer's JSON (already serialized by the response schema), or null when there is no valid session. */
  return async function getSession(
    request: FastifyRequest,
    reply: FastifyReply,
    query: GetSessionQuery,
  ): Promise<Answer> {
    const viaCookie = request.cookies[cookies.tokenName] !== undefined;
    const verified = token(request, reply, viaCookie);
    if (!verified) {
      countPath('none');
      return null;
    }
    const presented = verified.token;
    const now = clock.now();
    const resign = viaCookie && verified.renew;
    if (viaCookie && !query.disableCookieCache && !resign) {
      const cached = fromCookie(request, presented, now);
      if (cached) {
        countPath('cookie');
        return cached;
      }
    }
    const resolved = await resolve(presented, query);
    const { current } = resolved;
    countPath(current ? (resolved.from === 'redis' ? 'redis' : 'database') : 'none');
    if (viaCookie) setCookies(reply, current, resolved, now, resign, request.cookies[cookies.dataName] !== undefined);
    return current ? { json: resolved.json } : null;
  };
}

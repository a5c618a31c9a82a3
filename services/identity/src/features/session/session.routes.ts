import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../errors';
import type { SessionWeb } from './deps';
import { GetSession, ListSessions, RevokeOtherSessions, RevokeSession, RevokeSessions, SignOut } from './schemas';

/** A body already serialized by the response schema (session-json.ts): Fastify sends JSON strings as they are. */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

export async function sessionRoutes(fastify: FastifyInstance, ctx: SessionWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;

  // The hot path for internal services: cookie cache → Redis → PostgreSQL. Exempt from the global rate limit.
  app.get('/get-session', { schema: GetSession, config: { rateLimit: false } }, async (request, reply) => {
    const token = ctx.cookies.readToken(request);
    const viaCookie = request.cookies[ctx.cookies.tokenName] !== undefined;
    if (!token) {
      ctx.metrics.getSession.inc({ path: 'none' });
      if (viaCookie) ctx.cookies.clear(reply); // forged or tampered cookie
      return null;
    }
    const now = ctx.clock.now();
    if (viaCookie && !request.query.disableCookieCache) {
      const cached = ctx.cookies.readCache(request, token, now);
      if (cached) {
        ctx.metrics.getSession.inc({ path: 'cookie' });
        return sendJson(reply, cached.json);
      }
    }
    const resolved = await ctx.sessions.resolve(token, { source: 'cache', refresh: !request.query.disableRefresh });
    ctx.metrics.getSession.inc({
      path: resolved.current ? (resolved.from === 'redis' ? 'redis' : 'database') : 'none',
    });
    if (!resolved.current) {
      if (viaCookie) ctx.cookies.clear(reply);
      return null;
    }
    if (viaCookie) {
      if (resolved.renewed) ctx.cookies.set(reply, resolved.current, now, resolved.json);
      else ctx.cookies.setCache(reply, resolved.current.session, resolved.json, now);
    }
    return sendJson(reply, resolved.json);
  });

  app.post('/sign-out', { schema: SignOut }, async (request, reply) => {
    const token = ctx.cookies.readToken(request);
    if (token) await ctx.sessions.revoke(token);
    ctx.cookies.clear(reply);
    return { success: true };
  });

  app.get('/list-sessions', { schema: ListSessions, preHandler: session }, async (request) =>
    ctx.sessions.list(request.auth.user.id),
  );

  // spec §6: a session of another user (or no session at all) is refused as unauthorized; nothing changes.
  app.post('/revoke-session', { schema: RevokeSession, preHandler: session }, async (request, reply) => {
    const { token } = request.body;
    if (!(await ctx.sessions.revokeOwn(request.auth.user.id, token))) throw new ApiError('UNAUTHORIZED');
    if (token === request.auth.session.token) ctx.cookies.clear(reply);
    return { status: true };
  });

  app.post('/revoke-sessions', { schema: RevokeSessions, preHandler: session }, async (request, reply) => {
    await ctx.sessions.revokeAllForUser(request.auth.user.id);
    ctx.cookies.clear(reply);
    return { status: true };
  });

  app.post('/revoke-other-sessions', { schema: RevokeOtherSessions, preHandler: session }, async (request) => {
    await ctx.sessions.revokeAllForUser(request.auth.user.id, request.auth.session.token);
    return { status: true };
  });
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../errors';
import { auditSource } from '../../http/audit-source';
import { getSessionPipeline } from './get-session';
import { GetSession, ListSessions, RevokeOtherSessions, RevokeSession, RevokeSessions, SignOut } from './schemas';
import type { SessionWeb } from './web';

/** A body already serialized by the response schema (session-json.ts): Fastify sends JSON strings as they are. */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

export async function sessionRoutes(fastify: FastifyInstance, ctx: SessionWeb): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // The session list and revocations take a person's session: no API key stands for one here, since a key's
  // session is not a stored one (docs/api-keys.md).
  const storedSession = { preHandler: ctx.requireSession, config: { policy: { apiKeys: 'refused' } } } as const;

  // The hot path for internal services (get-session.ts). Exempt from the global rate limit.
  const getSession = getSessionPipeline(ctx);
  app.get(
    '/get-session',
    { schema: GetSession, config: { rateLimit: false, lookup: true } },
    async (request, reply) => {
      const answer = await getSession(request, reply, request.query);
      return answer ? sendJson(reply, answer.json) : null;
    },
  );

  app.post('/sign-out', { schema: SignOut }, async (request, reply) => {
    const token = ctx.cookies.readToken(request);
    if (token) await ctx.sessions.revoke(token, { type: 'user.signed_out', source: auditSource(request) });
    ctx.cookies.clear(reply);
    return { success: true };
  });

  app.get('/list-sessions', { schema: ListSessions, ...storedSession }, async (request) =>
    ctx.sessions.list(request.auth.user.id),
  );

  // spec §6: a session of another user (or no session at all) is refused as unauthorized; nothing changes.
  app.post('/revoke-session', { schema: RevokeSession, ...storedSession }, async (request, reply) => {
    const { token } = request.body;
    const end = { type: 'user.session_revoked', source: auditSource(request) } as const;
    if (!(await ctx.sessions.revokeOwn(request.auth.user.id, token, end))) throw new ApiError('UNAUTHORIZED');
    if (token === request.auth.session.token) ctx.cookies.clear(reply);
    return { status: true };
  });

  app.post('/revoke-sessions', { schema: RevokeSessions, ...storedSession }, async (request, reply) => {
    await ctx.sessions.revokeAllForUser(request.auth.user.id, {
      type: 'user.sessions_revoked',
      source: auditSource(request),
      details: { otherSessionsOnly: false },
    });
    ctx.cookies.clear(reply);
    return { status: true };
  });

  app.post('/revoke-other-sessions', { schema: RevokeOtherSessions, ...storedSession }, async (request) => {
    const end = {
      type: 'user.sessions_revoked',
      source: auditSource(request),
      details: { otherSessionsOnly: true },
    } as const;
    await ctx.sessions.revokeAllForUser(request.auth.user.id, end, request.auth.session.token);
    return { status: true };
  });
}

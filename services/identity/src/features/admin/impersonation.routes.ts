import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import { ImpersonateUser, StopImpersonating } from './schemas';
import type { AdminWeb } from './web';

/**
 * spec §4 Impersonation. The impersonation session takes the session cookies; the admin's own token waits in
 * the signed `<prefix>.admin_session` cookie (better-auth's name) until stop-impersonating puts it back.
 */
export async function impersonationRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Impersonation makes and ends sessions, a person's act: never with a key (docs/api-keys.md).
  const session = { preHandler: ctx.requireSession, config: { policy: { apiKeys: 'refused' } } } as const;
  const adminCookie = ctx.cookies.tokenName.replace(/session_token$/, 'admin_session');
  const attributes = {
    httpOnly: true,
    secure: ctx.config.publicUrl.startsWith('https://'),
    sameSite: 'lax' as const,
    path: '/',
  };

  app.post('/admin/impersonate-user', { schema: ImpersonateUser, ...session }, async (request, reply) => {
    const made = await ctx.admin.impersonation.impersonate(request.auth, request.body.userId, auditSource(request));
    const maxAge = ctx.config.admin.impersonationSessionDurationSec;
    reply.setCookie(adminCookie, request.auth.session.token, { ...attributes, signed: true, maxAge });
    ctx.cookies.set(reply, made, ctx.clock.now());
    return made;
  });

  app.post('/admin/stop-impersonating', { schema: StopImpersonating, ...session }, async (request, reply) => {
    const raw = request.cookies[adminCookie];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    const adminToken = unsigned?.valid ? unsigned.value : null;
    const admin = await ctx.admin.impersonation.stop(request.auth, adminToken, auditSource(request));
    ctx.cookies.set(reply, admin, ctx.clock.now());
    reply.clearCookie(adminCookie, attributes);
    return admin;
  });
}

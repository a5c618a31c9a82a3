import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../errors';
import { optionalSession, requireSession } from '../../http/require-session';
import { requireServiceCredential } from '../../http/service-auth';
import { DEFAULT_LIMIT, MAX_LIMIT } from './list-query';
import { HasPermission, ListOrganizations } from './schemas';
import type { AdminServices } from './wiring';

const count = (v: number | string | undefined, fallback: number) =>
  v === undefined ? fallback : /^\d+$/.test(String(v)) ? Number(v) : fallback;

export async function adminPermissionRoutes(fastify: FastifyInstance, ctx: AppContext & { admin: AdminServices }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const serverOnly = requireServiceCredential(ctx);

  // With a session: about its user. Without: only servers holding the service credential, for a user id or role.
  app.post('/admin/has-permission', { schema: HasPermission }, async function (request, reply) {
    const { permissions } = ctx.admin;
    const auth = await optionalSession(ctx, request);
    if (!auth) {
      permissions.requested(request.body);
      if (request.headers[ctx.config.apiKey.header] === undefined) throw new ApiError('UNAUTHORIZED');
      await serverOnly.call(this, request, reply, () => {});
    }
    return permissions.check(auth, request.body);
  });

  app.get(
    '/admin/list-organizations',
    { schema: ListOrganizations, preHandler: requireSession(ctx) },
    async (request) => {
      const limit = Math.min(count(request.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
      return ctx.admin.permissions.listOrganizations(request.auth, limit, count(request.query.offset, 0));
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors';
import { DEFAULT_LIMIT, MAX_LIMIT } from './list-query';
import { HasPermission, ListOrganizations, ListRoles } from './schemas';
import type { AdminWeb } from './web';

const count = (v: number | string | undefined, fallback: number) =>
  v === undefined ? fallback : /^\d+$/.test(String(v)) ? Number(v) : fallback;

export async function adminPermissionRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const serverOnly = ctx.requireServiceCredential;

  // With a session: about its user. Without: only servers holding the service credential, for a user id or role.
  app.post('/admin/has-permission', { schema: HasPermission }, async function (request, reply) {
    const { permissions } = ctx.admin;
    const auth = await ctx.optionalSession(request);
    if (!auth) {
      permissions.requested(request.body);
      if (request.headers[ctx.config.apiKey.header] === undefined) throw new ApiError('UNAUTHORIZED');
      await serverOnly.call(this, request, reply, () => {});
    }
    return permissions.check(auth, request.body);
  });

  app.get('/admin/list-roles', { schema: ListRoles, preHandler: ctx.requireSession }, async (request) =>
    ctx.admin.permissions.listRoles(request.auth),
  );

  app.get(
    '/admin/list-organizations',
    { schema: ListOrganizations, preHandler: ctx.requireSession },
    async (request) => {
      const limit = Math.min(count(request.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
      const { searchValue, sortBy, sortDirection } = request.query;
      return ctx.admin.permissions.listOrganizations(request.auth, limit, count(request.query.offset, 0), {
        searchValue,
        sortBy,
        sortDirection,
      });
    },
  );
}

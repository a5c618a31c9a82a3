import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import {
  CreateUser,
  GetUser,
  ListUserPasskeys,
  ListUsers,
  RemoveUser,
  ResetTwoFactor,
  SetRole,
  SetUserPassword,
  UpdateUser,
} from './schemas';
import type { AdminWeb } from './web';

export async function adminUserRoutes(fastify: FastifyInstance, ctx: AdminWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { users } = ctx.admin;

  app.post('/admin/create-user', { schema: CreateUser, preHandler: session }, async (request) => ({
    user: await users.create(request.auth, request.body, auditSource(request)),
  }));

  app.get('/admin/get-user', { schema: GetUser, preHandler: session }, async (request) =>
    users.get(request.auth, request.query.id),
  );

  app.post('/admin/update-user', { schema: UpdateUser, preHandler: session }, async (request) =>
    users.update(request.auth, request.body.userId, request.body.data, auditSource(request)),
  );

  app.post('/admin/set-role', { schema: SetRole, preHandler: session }, async (request) => ({
    user: await users.setRole(request.auth, request.body.userId, request.body.role, auditSource(request)),
  }));

  app.get('/admin/list-users', { schema: ListUsers, preHandler: session }, async (request) =>
    users.list(request.auth, request.query),
  );

  app.post('/admin/remove-user', { schema: RemoveUser, preHandler: session }, async (request) => {
    await users.remove(request.auth, request.body.userId, auditSource(request));
    return { success: true };
  });

  app.post('/admin/set-user-password', { schema: SetUserPassword, preHandler: session }, async (request) => {
    await users.setPassword(request.auth, request.body.userId, request.body.newPassword, auditSource(request));
    return { status: true };
  });

  app.get('/admin/list-user-passkeys', { schema: ListUserPasskeys, preHandler: session }, async (request) =>
    users.passkeys(request.auth, request.query.userId),
  );

  app.post('/admin/reset-two-factor', { schema: ResetTwoFactor, preHandler: session }, async (request) => ({
    user: await users.resetTwoFactor(
      request.auth,
      request.body.userId,
      auditSource(request),
      request.headers['accept-language'],
    ),
  }));
}

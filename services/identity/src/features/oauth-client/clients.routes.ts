import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import {
  CreateOAuthClient,
  DeleteOAuthClient,
  GetOAuthClient,
  ListOAuthClients,
  ListOAuthScopes,
  RotateOAuthClientSecret,
  UpdateOAuthClient,
} from './schemas';
import type { OAuthClientWeb } from './web';

/**
 * admin/create-oauth-client · list-oauth-clients · get-oauth-client · update-oauth-client · delete-oauth-client ·
 * rotate-oauth-client-secret · list-oauth-scopes
 */
export async function oauthClientRoutes(fastify: FastifyInstance, ctx: OAuthClientWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { clients } = ctx;

  app.post('/admin/create-oauth-client', { schema: CreateOAuthClient, preHandler: session }, (request) =>
    clients.create(request.auth, request.body, auditSource(request)),
  );

  app.get('/admin/list-oauth-clients', { schema: ListOAuthClients, preHandler: session }, (request) =>
    clients.list(request.auth, request.query),
  );

  app.get('/admin/get-oauth-client', { schema: GetOAuthClient, preHandler: session }, (request) =>
    clients.get(request.auth, request.query.clientId),
  );

  app.post('/admin/update-oauth-client', { schema: UpdateOAuthClient, preHandler: session }, (request) =>
    clients.update(request.auth, request.body, auditSource(request)),
  );

  app.post('/admin/delete-oauth-client', { schema: DeleteOAuthClient, preHandler: session }, async (request) => {
    await clients.delete(request.auth, request.body.clientId, auditSource(request));
    return { success: true };
  });

  app.post('/admin/rotate-oauth-client-secret', { schema: RotateOAuthClientSecret, preHandler: session }, (request) =>
    clients.rotate(request.auth, request.body.clientId, auditSource(request)),
  );

  app.get('/admin/list-oauth-scopes', { schema: ListOAuthScopes, preHandler: session }, (request) => {
    clients.demand(request.auth, { oauthClient: ['read'] }, 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS');
    return { scopes: [...ctx.scopes] };
  });
}

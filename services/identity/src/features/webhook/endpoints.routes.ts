import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { auditSource } from '../../http/audit-source';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  ListWebhookEndpoints,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
} from './schemas';
import type { WebhookWeb } from './web';

/** admin/create-webhook-endpoint · list-webhook-endpoints · update-webhook-endpoint · delete-… · rotate-webhook-secret */
export async function webhookEndpointRoutes(fastify: FastifyInstance, ctx: WebhookWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { endpoints } = ctx;

  app.post('/admin/create-webhook-endpoint', { schema: CreateWebhookEndpoint, preHandler: session }, (request) =>
    endpoints.create(request.auth, request.body, auditSource(request)),
  );

  app.get('/admin/list-webhook-endpoints', { schema: ListWebhookEndpoints, preHandler: session }, (request) =>
    endpoints.list(request.auth),
  );

  app.post('/admin/update-webhook-endpoint', { schema: UpdateWebhookEndpoint, preHandler: session }, (request) =>
    endpoints.update(request.auth, request.body, auditSource(request)),
  );

  app.post(
    '/admin/delete-webhook-endpoint',
    { schema: DeleteWebhookEndpoint, preHandler: session },
    async (request) => {
      await endpoints.delete(request.auth, request.body.id, auditSource(request));
      return { success: true };
    },
  );

  app.post('/admin/rotate-webhook-secret', { schema: RotateWebhookSecret, preHandler: session }, (request) =>
    endpoints.rotate(request.auth, request.body.id, auditSource(request)),
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ListWebhookDeliveries, RedeliverWebhook, SendTestWebhook } from './schemas';
import type { WebhookWeb } from './web';

/** admin/list-webhook-deliveries · send-test-webhook · redeliver-webhook */
export async function webhookDeliveryRoutes(fastify: FastifyInstance, ctx: WebhookWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = ctx.requireSession;
  const { deliveries } = ctx;

  app.get('/admin/list-webhook-deliveries', { schema: ListWebhookDeliveries, preHandler: session }, (request) =>
    deliveries.list(request.auth, request.query),
  );

  app.post('/admin/send-test-webhook', { schema: SendTestWebhook, preHandler: session }, (request) =>
    deliveries.sendTest(request.auth, request.body.id),
  );

  app.post('/admin/redeliver-webhook', { schema: RedeliverWebhook, preHandler: session }, (request) =>
    deliveries.redeliver(request.auth, request.body.id, request.body.eventId),
  );
}

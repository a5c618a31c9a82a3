import { type Static, type TSchema, Type } from 'typebox';
import { DateTime, errorResponses, Nullable, strict } from '../../shared/schemas';

/** The webhook endpoint routes under admin/ (docs/webhooks.md); they double as OpenAPI components. */
const Id = Type.String({ minLength: 1, maxLength: 64, description: 'The endpoint id' });

export const MAX_EVENT_TYPES = 64;
export const DEFAULT_DELIVERY_PAGE = 50;
export const MAX_DELIVERY_PAGE = 200;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where messages are POSTed: https in production, to a public address (docs/webhooks.md)',
});
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: MAX_EVENT_TYPES,
  description: 'Audit event types wanted: exact types, or prefixes ending in a dot (admin.user.)',
});
const Description = Type.String({ maxLength: 500 });

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    eventTypes: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    description: Nullable(Type.String()),
    disabledReason: Nullable(
      Type.String({ description: '`failing`: disabled by the service after failing for days; null otherwise' }),
    ),
    failingSince: Nullable(Type.String({ format: 'date-time', description: 'First failure since the last success' })),
    previousSecretExpiresAt: Nullable(
      Type.String({ format: 'date-time', description: 'Until then, messages are signed with the previous secret too' }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookEndpoint', title: 'WebhookEndpoint' },
);

const EndpointWithSecret = Type.Object(
  {
    endpoint: WebhookEndpointSchema,
    secret: Type.String({ description: 'The signing secret (whsec_…): shown only in this answer' }),
  },
  { $id: 'WebhookEndpointWithSecret', title: 'WebhookEndpointWithSecret' },
);

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String(),
    endpointId: Type.String(),
    eventId: Nullable(Type.String({ description: 'null for a test message' })),
    webhookId: Type.String({ description: 'The webhook-id header: the same on every attempt of a message' }),
    eventType: Type.String(),
    attempt: Type.Integer({ description: '1 for the first attempt' }),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
    responseCode: Nullable(Type.Integer({ description: "The endpoint's HTTP status; null when none came" })),
    durationMs: Type.Integer(),
    error: Nullable(Type.String()),
    attemptedAt: DateTime,
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

const Queued = Type.Object(
  { webhookId: Type.String({ description: 'The message id (webhook-id); its attempts appear in the delivery log' }) },
  { $id: 'WebhookQueued', title: 'WebhookQueued' },
);

function route<T extends object>(summary: string, parts: T, ok: TSchema) {
  return { tags: ['webhook'], summary, ...parts, response: { 200: ok, ...errorResponses } };
}

export const CreateWebhookEndpoint = route(
  'Register a webhook endpoint (admin webhook:create); the signing secret is shown once, in this answer',
  {
    body: Type.Object(
      {
        url: Url,
        eventTypes: EventTypes,
        enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
        description: Type.Optional(Description),
      },
      strict,
    ),
  },
  EndpointWithSecret,
);

export const ListWebhookEndpoints = route(
  'Every webhook endpoint, oldest first, never a secret (admin webhook:read)',
  { querystring: Type.Object({}, strict) },
  Type.Object({ endpoints: Type.Array(WebhookEndpointSchema) }),
);

export const UpdateWebhookEndpoint = route(
  'Change an endpoint (admin webhook:update); enabling it again clears its failure record',
  {
    body: Type.Object(
      {
        id: Id,
        url: Type.Optional(Url),
        eventTypes: Type.Optional(EventTypes),
        enabled: Type.Optional(Type.Boolean()),
        description: Type.Optional(Nullable(Description)),
      },
      strict,
    ),
  },
  Type.Object({ endpoint: WebhookEndpointSchema }),
);

export const DeleteWebhookEndpoint = route(
  'Delete an endpoint and its delivery log (admin webhook:delete); messages waiting for it are dropped',
  { body: Type.Object({ id: Id }, strict) },
  Type.Object({ success: Type.Boolean() }),
);

export const RotateWebhookSecret = route(
  'A new signing secret, shown once (admin webhook:update); the previous one also signs for WEBHOOK_SECRET_OVERLAP_SEC',
  { body: Type.Object({ id: Id }, strict) },
  EndpointWithSecret,
);

export const ListWebhookDeliveries = route(
  "An endpoint's delivery attempts, newest first, paged by cursor (admin webhook:read)",
  {
    querystring: Type.Object(
      {
        endpointId: Id,
        eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this event' })),
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_DELIVERY_PAGE,
            description: `Attempts per page (default ${DEFAULT_DELIVERY_PAGE})`,
          }),
        ),
        cursor: Type.Optional(
          Type.String({ minLength: 1, maxLength: 256, description: 'nextCursor of the previous page' }),
        ),
      },
      strict,
    ),
  },
  Type.Object(
    { deliveries: Type.Array(WebhookDeliverySchema), nextCursor: Nullable(Type.String()) },
    { $id: 'WebhookDeliveryPage', title: 'WebhookDeliveryPage' },
  ),
);

export const SendTestWebhook = route(
  'Queue a `webhook.test` message to an endpoint, enabled or not (admin webhook:update)',
  { body: Type.Object({ id: Id }, strict) },
  Queued,
);

export const RedeliverWebhook = route(
  'Queue an event the endpoint was sent before again, with the same webhook-id (admin webhook:update)',
  {
    body: Type.Object({ id: Id, eventId: Type.String({ minLength: 1, maxLength: 64 }) }, strict),
  },
  Queued,
);

export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;
export type WebhookDeliveryView = Static<typeof WebhookDeliverySchema>;
export type CreateEndpointBody = Static<typeof CreateWebhookEndpoint.body>;
export type UpdateEndpointBody = Static<typeof UpdateWebhookEndpoint.body>;
export type ListDeliveriesQuery = Static<typeof ListWebhookDeliveries.querystring>;

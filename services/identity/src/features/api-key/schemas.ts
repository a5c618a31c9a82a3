import { type Static, type TSchema, Type } from 'typebox';
import { ApiKeySchema, errorResponses, Nullable, strict } from '../../shared/schemas';

/** better-auth's api-key shapes; they double as OpenAPI components. */
const Id = Type.String({ minLength: 1, maxLength: 128 });
const Count = (description: string) => Type.Integer({ minimum: 0, maximum: 2_000_000_000, description });
const Ms = (description: string) => Type.Integer({ minimum: 1000, maximum: 2_000_000_000, description });

const PermissionsField = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 32 }),
  { maxProperties: 32, description: 'resource → actions; `{ "service": ["act"] }` makes a service key' },
);
const MetadataField = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 64 });
const ExpiresIn = Type.Integer({ minimum: 1, maximum: 10 * 366 * 86400, description: 'seconds from now' });

/** Set by trusted callers only (the service credential or an admin): better-auth's server-only properties. */
const TrustedFields = Type.Object({
  remaining: Type.Optional(Nullable(Count('uses left; null = unlimited'))),
  refillAmount: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000_000_000 })),
  refillInterval: Type.Optional(Ms('milliseconds between refills of `remaining` to `refillAmount`')),
  rateLimitEnabled: Type.Optional(Type.Boolean()),
  rateLimitTimeWindow: Type.Optional(Ms('rate-limit window in milliseconds')),
  rateLimitMax: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000_000_000 })),
  permissions: Type.Optional(PermissionsField),
});

const CreatedApiKeySchema = Type.Intersect([
  ApiKeySchema,
  Type.Object({ key: Type.String({ description: 'the full key: shown only in this answer' }) }),
]);

function route<T extends object>(summary: string, parts: T, ok: TSchema) {
  return { tags: ['api-key'], summary, ...parts, response: { 200: ok, ...errorResponses } };
}

export const CreateApiKey = route(
  'Create an API key for yourself, an organization you manage, or (trusted callers) any user; the key is shown once',
  {
    body: Type.Object(
      {
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
        expiresIn: Type.Optional(Nullable(ExpiresIn)),
        prefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' })),
        metadata: Type.Optional(MetadataField),
        userId: Type.Optional(Id),
        organizationId: Type.Optional(Id),
        ...TrustedFields.properties,
      },
      strict,
    ),
  },
  CreatedApiKeySchema,
);

export const GetApiKey = route(
  'An API key you may manage (never the key itself)',
  {
    querystring: Type.Object({ id: Id }, strict),
  },
  ApiKeySchema,
);

export const ListApiKeys = route(
  "Your API keys; an organization's with organizationId; any user's (trusted callers) with userId",
  { querystring: Type.Object({ organizationId: Type.Optional(Id), userId: Type.Optional(Id) }, strict) },
  Type.Array(ApiKeySchema),
);

export const UpdateApiKey = route(
  'Change an API key (name, enabled, expiry, metadata; trusted callers also quotas, limits and permissions)',
  {
    body: Type.Object(
      {
        keyId: Id,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
        enabled: Type.Optional(Type.Boolean()),
        expiresIn: Type.Optional(Nullable(ExpiresIn)),
        metadata: Type.Optional(MetadataField),
        ...TrustedFields.properties,
      },
      strict,
    ),
  },
  ApiKeySchema,
);

export const DeleteApiKey = route(
  'Delete an API key',
  { body: Type.Object({ keyId: Id }, strict) },
  Type.Object({ success: Type.Boolean() }),
);

export const VerifyApiKey = route(
  'Server only (service credential): check a key and spend one use; answers valid, or the refusal',
  {
    body: Type.Object(
      { key: Type.String({ minLength: 1, maxLength: 1024 }), permissions: Type.Optional(PermissionsField) },
      strict,
    ),
  },
  Type.Object({
    valid: Type.Boolean(),
    error: Nullable(
      Type.Object({
        code: Type.String(),
        message: Type.String(),
        tryAgainIn: Type.Optional(Type.Integer({ description: 'milliseconds until the rate-limit window ends' })),
      }),
    ),
    key: Nullable(ApiKeySchema),
  }),
);

/** What the routes take, typed by their schemas (docs/architecture.md): the service reads these, never a copy. */
export type TrustedFields = Static<typeof TrustedFields>;
export type CreateInput = Static<typeof CreateApiKey.body>;
export type UpdateInput = Static<typeof UpdateApiKey.body>;
export type ListQuery = Static<typeof ListApiKeys.querystring>;

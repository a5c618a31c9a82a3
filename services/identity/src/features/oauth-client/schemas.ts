import { type Static, type TSchema, Type } from 'typebox';
import { DateTime, errorResponses, Nullable, SuccessSchema, strict } from '../../shared/schemas';

/** The OAuth client routes under admin/ (docs/oauth-clients.md); they double as OpenAPI components. */

export const MAX_URIS = 32;
export const MAX_SCOPES = 64;
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

const ClientId = Type.String({ minLength: 1, maxLength: 64, description: 'The client_id' });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Shown to users on the consent page' });
const Description = Type.String({ maxLength: 500 });
const Uri = Type.String({ minLength: 1, maxLength: 2048 });
const Uris = (description: string) => Type.Array(Uri, { maxItems: MAX_URIS, description });
const RedirectUris = Uris(
  'Exact redirect URIs: absolute, no fragment, https; http on a loopback address (127.0.0.1, [::1], localhost) ' +
    'and private-use schemes (com.example.app:/cb) for public clients only',
);
const PostLogoutRedirectUris = Uris('Exact URIs the client may send users to after signing out (same rules)');
const Type_ = Type.Union([Type.Literal('confidential'), Type.Literal('public')], {
  description: 'confidential: holds a secret; public: cannot (browser or native app)',
});
const Grant = Type.Union(
  [
    Type.Literal('authorization_code'),
    Type.Literal('refresh_token'),
    Type.Literal('client_credentials'),
    Type.Literal('urn:ietf:params:oauth:grant-type:device_code'),
  ],
  { description: 'A grant type' },
);
const GrantTypes = Type.Array(Grant, {
  minItems: 1,
  maxItems: 8,
  description: 'client_credentials needs a confidential client; refresh_token needs authorization_code or device_code',
});
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
  minItems: 1,
  maxItems: MAX_SCOPES,
  description: 'Scopes the client may ask for, from admin/list-oauth-scopes',
});
const AuthMethod = Type.Union(
  [Type.Literal('client_secret_basic'), Type.Literal('client_secret_post'), Type.Literal('none')],
  { description: 'none for public clients; client_secret_basic (default) or client_secret_post for confidential ones' },
);
const TokenFormat = Type.Union([Type.Literal('jwt'), Type.Literal('opaque')], {
  description: 'Access tokens as signed JWTs or as opaque references',
});
const Lifetime = (max: number, what: string) =>
  Type.Integer({ minimum: 60, maximum: max, description: `${what} lifetime in seconds; null: the provider's default` });
const AccessTtl = Lifetime(86_400, 'Access token');
const RefreshTtl = Lifetime(31_536_000, 'Refresh token');
const IdTokenTtl = Lifetime(86_400, 'Id token');
const OrganizationId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The organization that owns the client; absent or null: the service itself',
});

export const OAuthClientSchema = Type.Object(
  {
    clientId: Type.String(),
    name: Type.String(),
    logoUri: Nullable(Type.String()),
    description: Nullable(Type.String()),
    type: Type_,
    redirectUris: Type.Array(Type.String()),
    postLogoutRedirectUris: Type.Array(Type.String()),
    grantTypes: Type.Array(Grant),
    scopes: Type.Array(Type.String()),
    tokenEndpointAuthMethod: AuthMethod,
    requirePkce: Type.Boolean({ description: 'Authorization requests must carry a PKCE challenge (S256)' }),
    accessTokenFormat: TokenFormat,
    accessTokenTtlSec: Nullable(Type.Integer()),
    refreshTokenTtlSec: Nullable(Type.Integer()),
    idTokenTtlSec: Nullable(Type.Integer()),
    firstParty: Type.Boolean({ description: "The service's own application: users are not asked for consent" }),
    organizationId: Nullable(Type.String()),
    backchannelLogoutUri: Nullable(Type.String()),
    pairwiseSubject: Type.Boolean({ description: 'sub differs per client (pairwise) instead of the user id' }),
    previousSecretExpiresAt: Nullable(
      Type.String({ format: 'date-time', description: 'Until then, the secret before the last rotation is accepted' }),
    ),
    createdBy: Nullable(Type.String({ description: 'The user id of the operator who registered it' })),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'OAuthClient', title: 'OAuthClient' },
);

const ClientWithSecret = Type.Object(
  {
    client: OAuthClientSchema,
    secret: Nullable(
      Type.String({ description: 'The client secret, shown only in this answer; null for a public client' }),
    ),
  },
  { $id: 'OAuthClientWithSecret', title: 'OAuthClientWithSecret' },
);

const OneClient = Type.Object({ client: OAuthClientSchema });

function route<T extends object>(summary: string, parts: T, ok: TSchema) {
  return { tags: ['oauth-client'], summary, ...parts, response: { 200: ok, ...errorResponses } };
}

export const CreateOAuthClient = route(
  "Register an OAuth client (admin oauthClient:create); a confidential client's secret is shown once, in this answer",
  {
    body: Type.Object(
      {
        name: Name,
        type: Type_,
        logoUri: Type.Optional(Uri),
        description: Type.Optional(Description),
        redirectUris: Type.Optional(RedirectUris),
        postLogoutRedirectUris: Type.Optional(PostLogoutRedirectUris),
        grantTypes: GrantTypes,
        scopes: Scopes,
        tokenEndpointAuthMethod: Type.Optional(AuthMethod),
        requirePkce: Type.Optional(Type.Boolean({ description: 'Default true; always true for public clients' })),
        accessTokenFormat: Type.Optional(TokenFormat),
        accessTokenTtlSec: Type.Optional(AccessTtl),
        refreshTokenTtlSec: Type.Optional(RefreshTtl),
        idTokenTtlSec: Type.Optional(IdTokenTtl),
        firstParty: Type.Optional(Type.Boolean({ description: 'Default false' })),
        organizationId: Type.Optional(OrganizationId),
        backchannelLogoutUri: Type.Optional(Uri),
        pairwiseSubject: Type.Optional(Type.Boolean({ description: 'Default false' })),
      },
      strict,
    ),
  },
  ClientWithSecret,
);

export const ListOAuthClients = route(
  'Registered OAuth clients, newest first, paged; never a secret (admin oauthClient:read)',
  {
    querystring: Type.Object(
      {
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name, any case' })),
        type: Type.Optional(Type_),
        organizationId: Type.Optional(OrganizationId),
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `Clients per page (default ${DEFAULT_PAGE})` }),
        ),
        offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      },
      strict,
    ),
  },
  Type.Object(
    {
      clients: Type.Array(OAuthClientSchema),
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
    },
    { $id: 'OAuthClientPage', title: 'OAuthClientPage' },
  ),
);

export const GetOAuthClient = route(
  'One OAuth client, never its secret (admin oauthClient:read)',
  { querystring: Type.Object({ clientId: ClientId }, strict) },
  OneClient,
);

export const UpdateOAuthClient = route(
  'Change an OAuth client (admin oauthClient:update): the fields given; null clears an optional one. Its type stays',
  {
    body: Type.Object(
      {
        clientId: ClientId,
        name: Type.Optional(Name),
        logoUri: Type.Optional(Nullable(Uri)),
        description: Type.Optional(Nullable(Description)),
        redirectUris: Type.Optional(RedirectUris),
        postLogoutRedirectUris: Type.Optional(PostLogoutRedirectUris),
        grantTypes: Type.Optional(GrantTypes),
        scopes: Type.Optional(Scopes),
        tokenEndpointAuthMethod: Type.Optional(AuthMethod),
        requirePkce: Type.Optional(Type.Boolean()),
        accessTokenFormat: Type.Optional(TokenFormat),
        accessTokenTtlSec: Type.Optional(Nullable(AccessTtl)),
        refreshTokenTtlSec: Type.Optional(Nullable(RefreshTtl)),
        idTokenTtlSec: Type.Optional(Nullable(IdTokenTtl)),
        firstParty: Type.Optional(Type.Boolean()),
        organizationId: Type.Optional(Nullable(OrganizationId)),
        backchannelLogoutUri: Type.Optional(Nullable(Uri)),
        pairwiseSubject: Type.Optional(Type.Boolean()),
      },
      strict,
    ),
  },
  OneClient,
);

export const DeleteOAuthClient = route(
  'Delete an OAuth client (admin oauthClient:delete): its id and secrets stop working at once',
  { body: Type.Object({ clientId: ClientId }, strict) },
  SuccessSchema,
);

export const RotateOAuthClientSecret = route(
  'A new client secret, shown once (admin oauthClient:update); the previous one is accepted for OAUTH_CLIENT_SECRET_GRACE_SEC',
  { body: Type.Object({ clientId: ClientId }, strict) },
  ClientWithSecret,
);

export const ListOAuthScopes = route(
  'The scopes a client may be allowed: the standard ones and the configured API scopes (admin oauthClient:read)',
  { querystring: Type.Object({}, strict) },
  Type.Object({ scopes: Type.Array(Type.String()) }, { $id: 'OAuthScopes', title: 'OAuthScopes' }),
);

export type OAuthClientView = Static<typeof OAuthClientSchema>;
export type ClientType = Static<typeof Type_>;
export type GrantType = Static<typeof Grant>;
export type CreateClientBody = Static<typeof CreateOAuthClient.body>;
export type UpdateClientBody = Static<typeof UpdateOAuthClient.body>;
export type ListClientsQuery = Static<typeof ListOAuthClients.querystring>;

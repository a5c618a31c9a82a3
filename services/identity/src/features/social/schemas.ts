import { type Static, Type } from 'typebox';
import {
  DateTime,
  errorResponses,
  Nullable,
  RedirectField,
  StatusSchema,
  strict,
  UserSchema,
} from '../../shared/schemas';

/** Schemas of the social routes (spec §7; better-auth's shapes where the spec is silent). */
const ProviderField = Type.String({ minLength: 1, maxLength: 64, description: 'provider id' });
const Token = Type.String({ minLength: 1, maxLength: 8192 });
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 50 });

export const IdTokenField = Type.Object(
  {
    token: Token,
    nonce: Type.Optional(Type.String({ maxLength: 512 })),
    accessToken: Type.Optional(Token),
    refreshToken: Type.Optional(Token),
    expiresAt: Type.Optional(Type.Number({ description: 'access-token expiry, epoch milliseconds' })),
  },
  strict,
);

export const SignInSocial = {
  tags: ['social'],
  summary: "Start a provider's sign-in (url to send the browser to), or sign in at once with an id token",
  body: Type.Object(
    {
      provider: ProviderField,
      callbackURL: Type.Optional(RedirectField),
      newUserCallbackURL: Type.Optional(RedirectField),
      errorCallbackURL: Type.Optional(RedirectField),
      disableRedirect: Type.Optional(Type.Boolean()),
      idToken: Type.Optional(IdTokenField),
      scopes: Type.Optional(Scopes),
      requestSignUp: Type.Optional(Type.Boolean()),
      loginHint: Type.Optional(Type.String({ maxLength: 320 })),
    },
    strict,
  ),
  response: {
    200: Type.Union([
      Type.Object({
        redirect: Type.Boolean(),
        url: Type.Optional(Type.String()),
        token: Type.Optional(Type.String()),
        user: Type.Optional(UserSchema),
      }),
      // id-token sign-in of a user with a second factor: no session yet (docs/two-factor.md)
      Type.Object({ twoFactorRedirect: Type.Literal(true), twoFactorMethods: Type.Array(Type.String()) }),
    ]),
    ...errorResponses,
  },
};

const CallbackFields = {
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  device_id: Type.Optional(Type.String({ maxLength: 512 })),
  user: Type.Optional(Type.String({ maxLength: 4096 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
};
const redirect = { description: 'Redirect to callbackURL / newUserCallbackURL, or with ?error=<code> (spec §8)' };
const ProviderParams = Type.Object({ providerId: Type.String({ maxLength: 64 }) });

export const CallbackGet = {
  tags: ['social'],
  summary: "The provider's redirect back: signs in, registers or links, then redirects",
  params: ProviderParams,
  querystring: Type.Object(CallbackFields),
  response: { 302: Type.Null(redirect), ...errorResponses },
};

export const CallbackPost = {
  tags: ['social'],
  summary: 'form_post callback (Apple): redirected to the GET callback so the SameSite=Lax state cookie is sent',
  params: ProviderParams,
  body: Type.Object(CallbackFields),
  response: { 302: Type.Null(redirect), ...errorResponses },
};

export const LinkSocial = {
  tags: ['social'],
  summary: 'Link a provider account to the signed-in user (redirect flow, or at once with an id token)',
  body: Type.Object(
    {
      provider: ProviderField,
      callbackURL: Type.Optional(RedirectField),
      errorCallbackURL: Type.Optional(RedirectField),
      idToken: Type.Optional(IdTokenField),
      scopes: Type.Optional(Scopes),
      requestSignUp: Type.Optional(Type.Boolean()),
      disableRedirect: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  response: {
    200: Type.Object({ url: Type.String(), redirect: Type.Boolean(), status: Type.Optional(Type.Boolean()) }),
    ...errorResponses,
  },
};

const AccountView = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  providerId: Type.String(),
  accountId: Type.String(),
  userId: Type.String(),
  scopes: Type.Array(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const ListAccounts = {
  tags: ['social'],
  summary: "The signed-in user's accounts (credential and providers)",
  response: { 200: Type.Array(AccountView), ...errorResponses },
};

export const UnlinkAccount = {
  tags: ['social'],
  summary: 'Unlink a provider account (fresh session; never the last account)',
  body: Type.Object({ providerId: ProviderField, accountId: Type.Optional(Type.String({ maxLength: 512 })) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

const TokenRequest = Type.Object(
  {
    providerId: ProviderField,
    accountId: Type.Optional(Type.String({ maxLength: 512 })),
    userId: Type.Optional(Type.String({ maxLength: 64, description: 'server only: needs the service credential' })),
  },
  strict,
);
const AccessToken = {
  accessToken: Nullable(Type.String()),
  accessTokenExpiresAt: Nullable(DateTime),
  scopes: Type.Array(Type.String()),
  idToken: Nullable(Type.String()),
};

export const GetAccessToken = {
  tags: ['social'],
  summary: "A provider access token of the user's account, refreshed when it expires within 5 s",
  body: TokenRequest,
  response: { 200: Type.Object(AccessToken), ...errorResponses },
};

export const RefreshToken = {
  tags: ['social'],
  summary: "Refresh a provider account's tokens now",
  body: TokenRequest,
  response: {
    200: Type.Object({
      ...AccessToken,
      refreshToken: Nullable(Type.String()),
      refreshTokenExpiresAt: Nullable(DateTime),
      providerId: Type.String(),
      accountId: Type.String(),
    }),
    ...errorResponses,
  },
};

export const AccountInfo = {
  tags: ['social'],
  summary: "The provider's current profile of one of the user's accounts, and its raw document",
  body: Type.Object(
    {
      accountId: Type.String({ minLength: 1, maxLength: 512 }),
      userId: Type.Optional(Type.String({ maxLength: 64, description: 'server only: needs the service credential' })),
    },
    strict,
  ),
  response: {
    200: Type.Object({
      user: Type.Object({
        id: Type.String(),
        name: Type.String(),
        email: Nullable(Type.String()),
        image: Nullable(Type.String()),
        emailVerified: Type.Boolean(),
      }),
      data: Type.Object({}, { additionalProperties: true }),
    }),
    ...errorResponses,
  },
};

/** What the routes take, typed by their schemas (docs/architecture.md): the services read these, never a copy. */
export type IdTokenInput = Static<typeof IdTokenField>;
/** What starts a redirect flow: sign-in/social's body without the id token (link-social's fits too). */
export type StartInput = Omit<Static<typeof SignInSocial.body>, 'idToken' | 'disableRedirect'>;
/** The account a token or unlink call names. */
export type AccountSelector = Static<typeof UnlinkAccount.body>;

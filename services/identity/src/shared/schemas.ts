import { type Static, type TSchema, type TSchemaOptions, Type } from 'typebox';

/**
 * The small builders every schema file uses, defined once: an object that refuses unknown properties, a value or
 * null, and a date-time text.
 */
export const strict = { additionalProperties: false } as const;
export const Nullable = <T extends TSchema>(type: T, options?: TSchemaOptions) =>
  Type.Union([type, Type.Null()], options);
export const DateTime = Type.String({ format: 'date-time' });

/**
 * What a route takes, as its schema types it: a service's input is `BodyOf<typeof Route>` (or a named alias of it
 * in the feature's schemas.ts), never an interface that repeats the fields.
 */
export type BodyOf<Route extends { body: TSchema }> = Static<Route['body']>;
export type QueryOf<Route extends { querystring: TSchema }> = Static<Route['querystring']>;

/** Response and field schemas shared by features; they double as the OpenAPI components. */
export const ErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'Stable UPPER_SNAKE code from the error catalogue' }),
    message: Type.String({ description: 'Catalogue text (spec §8)' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), problem: Type.String() }))),
  },
  { $id: 'Error', title: 'Error' },
);

/** Every route documents its error answers: clients generated from the OpenAPI document need them typed. */
export const errorResponses = { '4xx': ErrorSchema, '5xx': ErrorSchema };

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    emailVerified: Type.Boolean(),
    name: Type.String(),
    image: Nullable(Type.String()),
    role: Type.String(),
    banned: Type.Boolean(),
    banReason: Nullable(Type.String()),
    banExpires: Nullable(DateTime),
    language: Nullable(Type.String()),
    twoFactorEnabled: Type.Boolean({ description: 'a confirmed second factor: the password sign-in asks for it' }),
    passkeyCount: Type.Integer({
      minimum: 0,
      description: 'passkeys the user signs in with (docs/two-factor.md "Passkeys"); each counts as a second factor',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'User', title: 'User' },
);

export const SessionSchema = Type.Object(
  {
    id: Type.String(),
    token: Type.String(),
    userId: Type.String(),
    expiresAt: DateTime,
    createdAt: DateTime,
    updatedAt: DateTime,
    ipAddress: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    impersonatedBy: Nullable(Type.String()),
    activeOrganizationId: Nullable(Type.String()),
  },
  { $id: 'Session', title: 'Session' },
);

/**
 * A session as the session lists answer it (list-sessions, admin list-user-sessions): the session and how it was
 * made (docs/sessions.md "How a session was made"). Never in get-session's answer, its Redis entry or its cookie.
 */
export const ListedSessionSchema = Type.Object(
  {
    ...SessionSchema.properties,
    signInMethod: Nullable(
      Type.String({
        description:
          'how the session was made: the sign-in method as its user.signed_in audit event names it, without ' +
          '+trusted-device (email, sign-up, social:<provider>, passkey, magic-link, email-otp, ' +
          'email-verification, password-change), or impersonation; null for a session made before it was ' +
          'recorded (unknown)',
      }),
    ),
    secondFactor: Type.Union(
      [Type.Literal('totp'), Type.Literal('backup-code'), Type.Literal('trusted-device'), Type.Null()],
      {
        description:
          'what completed a sign-in that asked for a second factor: an authenticator code, a backup code, or a ' +
          'device the user trusted; null when none was asked (or unknown)',
      },
    ),
  },
  { $id: 'ListedSession', title: 'ListedSession' },
);

export const SessionWithUserSchema = Type.Object(
  { session: SessionSchema, user: UserSchema },
  { $id: 'SessionWithUser', title: 'SessionWithUser' },
);

/**
 * An API key as every route answers it (better-auth's fields; `organizationId` is our addition); never the key.
 * Here rather than in the api-key feature: the service-credential guard in http/ carries the key it checked.
 */
export const ApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
    start: Nullable(Type.String({ description: 'first characters of the key, for display' })),
    prefix: Nullable(Type.String()),
    userId: Nullable(Type.String()),
    organizationId: Nullable(Type.String({ description: 'set for keys owned by an organization' })),
    refillInterval: Nullable(Type.Integer()),
    refillAmount: Nullable(Type.Integer()),
    lastRefillAt: Nullable(DateTime),
    enabled: Type.Boolean(),
    rateLimitEnabled: Type.Boolean(),
    rateLimitTimeWindow: Nullable(Type.Integer()),
    rateLimitMax: Nullable(Type.Integer()),
    requestCount: Type.Integer(),
    remaining: Nullable(Type.Integer()),
    lastRequest: Nullable(DateTime),
    expiresAt: Nullable(DateTime),
    createdAt: DateTime,
    updatedAt: DateTime,
    metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
    permissions: Nullable(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

/** Field limits: bounded so no input can grow a cookie, a row or a log line without limit. */
export const EmailField = Type.String({ format: 'email', maxLength: 254 });
export const NameField = Type.String({ minLength: 1, maxLength: 256 });
export const ImageField = Type.String({ maxLength: 2048 });
export const RedirectField = Type.String({ maxLength: 2048 });
/**
 * Length is checked against the configuration in the service, before hashing (Password too short / too long,
 * spec §5). No schema maxLength: it would answer an over-long password with VALIDATION_ERROR instead of
 * PASSWORD_TOO_LONG (and cap a configured maximum); the 64 KiB body limit bounds the size.
 */
export const PasswordField = Type.String();

export const StatusSchema = Type.Object({ status: Type.Boolean() }, { $id: 'Status', title: 'Status' });
export const SuccessSchema = Type.Object({ success: Type.Boolean() }, { $id: 'Success', title: 'Success' });

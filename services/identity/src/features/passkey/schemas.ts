import { type Static, Type } from 'typebox';
import { DateTime, errorResponses, Nullable, SessionWithUserSchema, StatusSchema, strict } from '../../shared/schemas';

/** What a browser's WebAuthn call answers carries fields this service does not read; they are let through. */
const open = { additionalProperties: true } as const;
const tags = ['passkey'];

/** base64url text, as WebAuthn's JSON serializes its binary fields; bounded well above any real authenticator's. */
const Base64Url = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+=*$' });
const PasskeyName = Type.String({ minLength: 1, maxLength: 100, description: 'the name the user gives the passkey' });
const PasskeyId = Type.String({ minLength: 1, maxLength: 64 });

/** A passkey as better-auth's passkey plugin answers it (the `passkey` model's fields). */
export const PasskeySchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
    publicKey: Type.String({ description: "the credential's COSE public key, base64" }),
    userId: Type.String(),
    credentialID: Type.String({ description: "the credential's id as the authenticator names it (base64url)" }),
    counter: Type.Integer({
      minimum: 0,
      description: 'the last signature counter seen; 0 when the authenticator keeps none',
    }),
    deviceType: Type.String({ description: 'singleDevice, or multiDevice for a synced passkey' }),
    backedUp: Type.Boolean(),
    transports: Type.String({
      description: 'comma-separated transports the authenticator reported (usb, nfc, internal, hybrid, …)',
    }),
    createdAt: DateTime,
    aaguid: Nullable(
      Type.String({ description: "the authenticator model's AAGUID (all zeros when it keeps it private)" }),
    ),
  },
  { $id: 'Passkey', title: 'Passkey' },
);

export type PasskeyView = Static<typeof PasskeySchema>;

const Credential = Type.Object(
  { id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) },
  strict,
);

export const GenerateRegisterOptions = {
  tags,
  summary: 'Options for navigator.credentials.create(): a new passkey for the signed-in user (fresh session)',
  description:
    "Sets the challenge cookie; /passkey/verify-registration with the browser's answer adds the passkey. `name` becomes the account name the authenticator shows; `context` is accepted and not used.",
  querystring: Type.Object(
    {
      authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      context: Type.Optional(Type.String({ maxLength: 256 })),
    },
    strict,
  ),
  response: {
    200: Type.Object(
      {
        challenge: Type.String(),
        rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
        user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
        pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
        timeout: Type.Optional(Type.Integer()),
        excludeCredentials: Type.Optional(Type.Array(Credential)),
        authenticatorSelection: Type.Optional(
          Type.Object(
            {
              authenticatorAttachment: Type.Optional(Type.String()),
              requireResidentKey: Type.Optional(Type.Boolean()),
              residentKey: Type.Optional(Type.String()),
              userVerification: Type.Optional(Type.String()),
            },
            strict,
          ),
        ),
        attestation: Type.Optional(Type.String()),
        extensions: Type.Optional(Type.Object({}, open)),
        hints: Type.Optional(Type.Array(Type.String())),
      },
      { $id: 'PasskeyCreationOptions', title: 'PasskeyCreationOptions' },
    ),
    ...errorResponses,
  },
};

/** What navigator.credentials.create() answered, as @simplewebauthn/browser's startRegistration serializes it. */
const RegistrationResponse = Type.Object(
  {
    id: Base64Url(1024),
    rawId: Base64Url(1024),
    type: Type.String({ maxLength: 32 }),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(8192),
        attestationObject: Base64Url(32768),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 })),
      },
      open,
    ),
  },
  open,
);

export const VerifyRegistration = {
  tags,
  summary: "Adds the passkey navigator.credentials.create() made (the challenge cookie's ceremony; fresh session)",
  description:
    'The answer is the new passkey. `createSession` is accepted and not used: the caller is signed in already. A notice is mailed.',
  body: Type.Object(
    {
      response: RegistrationResponse,
      name: Type.Optional(Type.String({ maxLength: 100 })),
      createSession: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  response: { 200: PasskeySchema, ...errorResponses },
};

export const GenerateAuthenticateOptions = {
  tags,
  summary: 'Options for navigator.credentials.get(): a passkey sign-in (discoverable: no user named)',
  description:
    "Sets the challenge cookie. For a signed-in caller the options list that user's passkeys, and only those verify.",
  response: {
    200: Type.Object(
      {
        challenge: Type.String(),
        timeout: Type.Optional(Type.Integer()),
        rpId: Type.Optional(Type.String()),
        allowCredentials: Type.Optional(Type.Array(Credential)),
        userVerification: Type.Optional(Type.String()),
        extensions: Type.Optional(Type.Object({}, open)),
        hints: Type.Optional(Type.Array(Type.String())),
      },
      { $id: 'PasskeyRequestOptions', title: 'PasskeyRequestOptions' },
    ),
    ...errorResponses,
  },
};

/** What navigator.credentials.get() answered, as @simplewebauthn/browser's startAuthentication serializes it. */
const AuthenticationResponse = Type.Object(
  {
    id: Base64Url(1024),
    rawId: Base64Url(1024),
    type: Type.String({ maxLength: 32 }),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(8192),
        authenticatorData: Base64Url(8192),
        signature: Base64Url(2048),
        // empty for a credential stored without a user handle (some security keys)
        userHandle: Type.Optional(Nullable(Type.String({ maxLength: 256, pattern: '^[A-Za-z0-9_-]*=*$' }))),
      },
      open,
    ),
  },
  open,
);

export const VerifyAuthentication = {
  tags,
  summary: "Signs in with a passkey: the challenge cookie's ceremony and the browser's assertion make the session",
  description:
    'A passkey sign-in is two factors in one (the device and its user verification): no second factor is asked.',
  body: Type.Object({ response: AuthenticationResponse }, strict),
  response: { 200: SessionWithUserSchema, ...errorResponses },
};

export const ListUserPasskeys = {
  tags,
  summary: "The signed-in user's passkeys, oldest first",
  response: { 200: Type.Array(PasskeySchema), ...errorResponses },
};

export const UpdatePasskey = {
  tags,
  summary: "Renames one of the signed-in user's passkeys",
  body: Type.Object({ id: PasskeyId, name: PasskeyName }, strict),
  response: { 200: Type.Object({ passkey: PasskeySchema }), ...errorResponses },
};

export const DeletePasskey = {
  tags,
  summary: "Removes one of the signed-in user's passkeys (a notice is mailed)",
  body: Type.Object({ id: PasskeyId }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

/** What the routes take, typed by their schemas (docs/architecture.md): the service reads these, never a copy. */
export type RegistrationQuery = Static<typeof GenerateRegisterOptions.querystring>;
export type RegistrationInput = Static<typeof VerifyRegistration.body>;

import { Type } from 'typebox';
import { errorResponses, PasswordField, StatusSchema, strict, UserSchema } from '../../shared/schemas';

const tags = ['two-factor'];

/** A code as typed: a 6-digit TOTP code or a backup code (`xxxxx-xxxxx`); bounded, checked by the service. */
const CodeField = Type.String({ minLength: 1, maxLength: 32 });
const TrustDevice = Type.Optional(
  Type.Boolean({ description: 'trust this browser: it skips the second factor for the configured number of days' }),
);

/** The answer of a verified code: the session token (new at sign-in) and the user, as better-auth answers it. */
const TokenAndUser = Type.Object({ token: Type.String(), user: UserSchema });

export const EnableTwoFactor = {
  tags,
  summary: 'Start enrolling an authenticator app: its otpauth:// URI and a set of backup codes (password required)',
  description:
    'The second factor is on once /two-factor/verify-totp accepted a first code. Answers TOTP_ALREADY_ENABLED when it is on.',
  body: Type.Object(
    {
      password: PasswordField,
      issuer: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      method: Type.Optional(Type.Literal('totp')),
    },
    strict,
  ),
  response: {
    200: Type.Object({
      method: Type.Literal('totp'),
      totpURI: Type.String(),
      backupCodes: Type.Array(Type.String()),
    }),
    ...errorResponses,
  },
};

export const DisableTwoFactor = {
  tags,
  summary: 'Turn the second factor off (fresh session and password required); backup codes and trusted devices go',
  body: Type.Object({ password: PasswordField }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const GetTotpUri = {
  tags,
  summary: 'The otpauth:// URI of the enrolled secret again (password required)',
  body: Type.Object({ password: PasswordField }, strict),
  response: { 200: Type.Object({ totpURI: Type.String() }), ...errorResponses },
};

export const VerifyTotp = {
  tags,
  summary: 'A TOTP code: completes a pending sign-in (its cookie), or confirms the enrolment (a session)',
  description:
    'Each code is accepted once. At sign-in, wrong codes are counted per pending sign-in and per account (docs/two-factor.md).',
  body: Type.Object({ code: CodeField, trustDevice: TrustDevice }, strict),
  response: { 200: TokenAndUser, ...errorResponses },
};

export const VerifyBackupCode = {
  tags,
  summary: 'A backup code (each works once): completes a pending sign-in, or is spent by the signed-in user',
  body: Type.Object(
    {
      code: CodeField,
      trustDevice: TrustDevice,
      disableSession: Type.Optional(Type.Boolean({ description: 'at sign-in: check the code, make no session' })),
    },
    strict,
  ),
  response: { 200: TokenAndUser, ...errorResponses },
};

export const GenerateBackupCodes = {
  tags,
  summary: 'A new set of backup codes; the previous ones stop working (password required)',
  body: Type.Object({ password: PasswordField }, strict),
  response: {
    200: Type.Object({ status: Type.Literal(true), backupCodes: Type.Array(Type.String()) }),
    ...errorResponses,
  },
};

export const TwoFactorStatus = {
  tags,
  summary: "The signed-in user's second factor: on or off, TOTP confirmed, backup codes left, passkeys",
  response: {
    200: Type.Object(
      {
        enabled: Type.Boolean(),
        totp: Type.Boolean(),
        backupCodesRemaining: Type.Integer({ minimum: 0 }),
        passkeys: Type.Integer({
          minimum: 0,
          description: 'passkeys the user has; each counts as a second factor for the policies',
        }),
      },
      { $id: 'TwoFactorStatus', title: 'TwoFactorStatus' },
    ),
    ...errorResponses,
  },
};

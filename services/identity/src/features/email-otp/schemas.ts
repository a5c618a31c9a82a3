import { Type } from 'typebox';
import { EmailField, errorResponses, Nullable, PasswordField, SuccessSchema, UserSchema } from '../../shared/schemas';

const strict = { additionalProperties: false } as const;
const tags = ['passwordless'];
const Otp = Type.String({ minLength: 1, maxLength: 32, description: 'the mailed code' });
const CodeType = Type.Union([
  Type.Literal('sign-in'),
  Type.Literal('email-verification'),
  Type.Literal('forget-password'),
  Type.Literal('change-email'),
]);

export const SendVerificationOtp = {
  tags,
  summary: 'Mail a one-time code (the same answer whether or not the address has an account)',
  body: Type.Object(
    {
      email: EmailField,
      type: CodeType,
    },
    strict,
  ),
  response: { 200: SuccessSchema, ...errorResponses },
};

export const CheckVerificationOtp = {
  tags,
  summary:
    'Whether a mailed code is right, without using it (a try like any other: counted on the code and the account)',
  body: Type.Object({ email: EmailField, type: CodeType, otp: Otp }, strict),
  response: { 200: SuccessSchema, ...errorResponses },
};

/** better-auth's body: extra fields for a new user are accepted (its additional fields); name and image are used. */
export const SignInEmailOtp = {
  tags,
  summary: 'Sign in with a mailed code: a session (or, with a second factor, its step), once',
  body: Type.Object(
    {
      email: EmailField,
      otp: Otp,
      name: Type.Optional(Type.String({ maxLength: 256 })),
      image: Type.Optional(Type.String({ maxLength: 2048 })),
    },
    { additionalProperties: true },
  ),
  response: {
    200: Type.Union([
      Type.Object({ token: Type.String(), user: UserSchema }),
      // a user with a second factor: no session yet (docs/two-factor.md), better-auth's two-factor answer
      Type.Object({ twoFactorRedirect: Type.Literal(true), twoFactorMethods: Type.Array(Type.String()) }),
    ]),
    ...errorResponses,
  },
};

export const VerifyEmailOtp = {
  tags,
  summary: 'Verify the address with a mailed code',
  body: Type.Object({ email: EmailField, otp: Otp }, strict),
  response: {
    200: Type.Object({
      status: Type.Literal(true),
      // the session's when the service signs in after a verification (AUTO_SIGN_IN_AFTER_VERIFICATION), else null
      token: Nullable(Type.String()),
      user: UserSchema,
      // signing in a user with a second factor: no session yet, that factor is asked next (docs/two-factor.md)
      twoFactorRedirect: Type.Optional(Type.Literal(true)),
      twoFactorMethods: Type.Optional(Type.Array(Type.String())),
    }),
    ...errorResponses,
  },
};

export const RequestPasswordResetOtp = {
  tags,
  summary: 'Mail a password-reset code (the same answer whether or not the address has an account)',
  body: Type.Object({ email: EmailField }, strict),
  response: { 200: SuccessSchema, ...errorResponses },
};

export const ResetPasswordOtp = {
  tags,
  summary: 'Set a new password with a mailed reset code',
  body: Type.Object({ email: EmailField, otp: Otp, password: PasswordField }, strict),
  response: { 200: SuccessSchema, ...errorResponses },
};

export const RequestEmailChangeOtp = {
  tags,
  summary:
    'Mail a code to the new address of the signed-in user (the same answer when it is taken); a verified current address confirms with `otp`, a code mailed to it',
  body: Type.Object(
    {
      newEmail: EmailField,
      otp: Type.Optional({
        ...Otp,
        description: 'an email-verification code mailed to the current address (verified)',
      }),
    },
    strict,
  ),
  response: { 200: SuccessSchema, ...errorResponses },
};

export const ChangeEmailOtp = {
  tags,
  summary: "Move the signed-in user's account to the new address with the code mailed there (verified, at once)",
  body: Type.Object({ newEmail: EmailField, otp: Otp }, strict),
  response: { 200: SuccessSchema, ...errorResponses },
};

import { type Static, Type } from 'typebox';
import {
  EmailField,
  errorResponses,
  Nullable,
  PasswordField,
  RedirectField,
  StatusSchema,
  strict,
  UserSchema,
} from '../../shared/schemas';
import { TokenAndUser } from './schemas';

/** Schemas of the password, email and deletion flows (spec §7 account calls; better-auth shapes where silent). */
const TokenField = Type.String({ minLength: 1, maxLength: 4096 });
const redirect = { description: 'Redirect to callbackURL (with ?token= or ?error=)' };

export const RequestPasswordReset = {
  tags: ['password'],
  summary: 'Mail a reset link; the same answer whether or not the email has an account',
  body: Type.Object({ email: EmailField, redirectTo: Type.Optional(RedirectField) }, strict),
  response: { 200: Type.Object({ status: Type.Boolean(), message: Type.String() }), ...errorResponses },
};

export const ResetPasswordLink = {
  tags: ['password'],
  summary: 'The mailed reset link: redirects to callbackURL with ?token=, or with ?error=INVALID_TOKEN',
  params: Type.Object({ token: Type.String({ maxLength: 64 }) }),
  querystring: Type.Object({ callbackURL: Type.Optional(RedirectField) }, strict),
  response: { 302: Type.Null(redirect), ...errorResponses },
};

export const ResetPassword = {
  tags: ['password'],
  summary: 'Set a new password with a reset token (single use)',
  body: Type.Object({ newPassword: PasswordField, token: Type.Optional(Type.String({ maxLength: 64 })) }, strict),
  querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 64 })) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const ChangePassword = {
  tags: ['password'],
  summary: 'Change the password; revokeOtherSessions ends every other session and issues a new token',
  body: Type.Object(
    { newPassword: PasswordField, currentPassword: PasswordField, revokeOtherSessions: Type.Optional(Type.Boolean()) },
    strict,
  ),
  response: {
    200: TokenAndUser,
    ...errorResponses,
  },
};

export const SetPassword = {
  tags: ['password'],
  summary: 'Server only (x-api-key service credential plus the user session): a first password',
  body: Type.Object({ newPassword: PasswordField }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const SendVerificationEmail = {
  tags: ['email'],
  summary:
    "Mail a verification link to the signed-in user's own unverified email (or, without a session, to an unverified account's email)",
  body: Type.Object({ email: EmailField, callbackURL: Type.Optional(RedirectField) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const VerifyEmail = {
  tags: ['email'],
  summary: 'The mailed verification link: verifies, or completes a change of email',
  querystring: Type.Object({ token: TokenField, callbackURL: Type.Optional(RedirectField) }, strict),
  response: {
    200: Type.Object({ status: Type.Boolean(), user: Nullable(UserSchema) }),
    302: Type.Null(redirect),
    ...errorResponses,
  },
};

export const ChangeEmail = {
  tags: ['email'],
  summary: 'Change email: verified users confirm from the old address, unverified users move at once',
  body: Type.Object({ newEmail: EmailField, callbackURL: Type.Optional(RedirectField) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const DeleteUser = {
  tags: ['account'],
  summary: 'Delete the account (password, token or fresh session), or mail a confirmation link',
  body: Type.Object(
    {
      callbackURL: Type.Optional(RedirectField),
      password: Type.Optional(PasswordField),
      token: Type.Optional(Type.String({ maxLength: 64 })),
    },
    strict,
  ),
  response: {
    200: Type.Object({ success: Type.Boolean(), message: Type.String() }),
    ...errorResponses,
  },
};

export const DeleteUserCallback = {
  tags: ['account'],
  summary:
    "The mailed deletion link (needs the same user session); with the hosted pages' confirmation page as callbackURL, it leads there and deletes nothing",
  querystring: Type.Object(
    { token: Type.String({ maxLength: 64 }), callbackURL: Type.Optional(RedirectField) },
    strict,
  ),
  response: {
    200: Type.Object({ success: Type.Boolean(), message: Type.String() }),
    302: Type.Null(redirect),
    303: Type.Null({
      description: 'To the hosted confirmation page with ?token= (docs/hosted-pages.md): it asks before deleting',
    }),
    ...errorResponses,
  },
};

/** What the routes take, typed by their schemas (docs/architecture.md). */
export type ChangePasswordInput = Static<typeof ChangePassword.body>;
export type DeleteInput = Static<typeof DeleteUser.body>;

import { type Static, Type } from 'typebox';
import { LanguageField } from '../../mail/language';
import {
  EmailField,
  errorResponses,
  ImageField,
  NameField,
  Nullable,
  PasswordField,
  RedirectField,
  strict,
  UserSchema,
} from '../../shared/schemas';

/** A session token (null when no session was made) and the user: sign-up and change-password answers. */
export const TokenAndUser = Type.Object(
  { token: Nullable(Type.String()), user: UserSchema },
  { $id: 'TokenAndUser', title: 'TokenAndUser' },
);

export const SignUpEmail = {
  tags: ['account'],
  summary: 'Create an account with email and password (signs in unless configured otherwise)',
  body: Type.Object(
    {
      name: NameField,
      email: EmailField,
      password: PasswordField,
      image: Type.Optional(ImageField),
      language: Type.Optional(LanguageField),
      callbackURL: Type.Optional(RedirectField),
      rememberMe: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  response: {
    200: TokenAndUser,
    ...errorResponses,
  },
};

export const SignInEmail = {
  tags: ['account'],
  summary: 'Sign in with email and password',
  body: Type.Object(
    {
      email: EmailField,
      password: PasswordField,
      callbackURL: Type.Optional(RedirectField),
      rememberMe: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  response: {
    200: Type.Union([
      Type.Object({
        redirect: Type.Boolean(),
        token: Type.String(),
        url: Type.Optional(Type.String()),
        user: UserSchema,
      }),
      // a user with a second factor: no session yet (docs/two-factor.md), better-auth's two-factor answer
      Type.Object({ twoFactorRedirect: Type.Literal(true), twoFactorMethods: Type.Array(Type.String()) }),
    ]),
    ...errorResponses,
  },
};

export const UpdateUser = {
  tags: ['account'],
  summary: "Update the signed-in user's name, image or mail language (nothing else can be set here)",
  body: Type.Object(
    {
      name: Type.Optional(NameField),
      image: Type.Optional(Nullable(ImageField)),
      language: Type.Optional(LanguageField),
    },
    strict,
  ),
  response: { 200: Type.Object({ status: Type.Boolean() }), ...errorResponses },
};

/** What the routes take, typed by their schemas (docs/architecture.md): the services read these, never a copy. */
export type SignUpInput = Static<typeof SignUpEmail.body>;
export type SignInInput = Static<typeof SignInEmail.body>;
/** The fields update-user may change; the admin feature's update-user sets the same ones. */
export type ProfileFields = Static<typeof UpdateUser.body>;

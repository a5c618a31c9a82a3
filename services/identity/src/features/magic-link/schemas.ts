import { Type } from 'typebox';
import {
  EmailField,
  errorResponses,
  RedirectField,
  SessionSchema,
  StatusSchema,
  UserSchema,
} from '../../shared/schemas';

const strict = { additionalProperties: false } as const;
const tags = ['passwordless'];

/** better-auth's magic-link plugin body (its `metadata` is for its own mail callback: accepted, not used). */
export const SignInMagicLink = {
  tags,
  summary: 'Mail a one-time sign-in link (the same answer whether or not the address has an account)',
  body: Type.Object(
    {
      email: EmailField,
      name: Type.Optional(Type.String({ maxLength: 256, description: 'the new user’s name, when the link signs up' })),
      callbackURL: Type.Optional(RedirectField),
      newUserCallbackURL: Type.Optional(RedirectField),
      errorCallbackURL: Type.Optional(RedirectField),
      metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    strict,
  ),
  response: { 200: StatusSchema, ...errorResponses },
};

export const MagicLinkVerify = {
  tags,
  summary: 'Use a mailed sign-in link: a session (or, with a second factor, its step), once',
  querystring: Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 256 }),
      callbackURL: Type.Optional(RedirectField),
      newUserCallbackURL: Type.Optional(RedirectField),
      errorCallbackURL: Type.Optional(RedirectField),
    },
    strict,
  ),
  response: {
    200: Type.Union([
      Type.Object({
        token: Type.String(),
        user: UserSchema,
        session: SessionSchema,
        // beside better-auth's answer: whether this link registered its user (a page then goes to newUserCallbackURL)
        newUser: Type.Boolean(),
      }),
      // a user with a second factor: no session yet (docs/two-factor.md), better-auth's two-factor answer
      Type.Object({ twoFactorRedirect: Type.Literal(true), twoFactorMethods: Type.Array(Type.String()) }),
    ]),
    302: Type.Null({ description: 'Redirect to callbackURL (newUserCallbackURL for a new user), or ?error=' }),
    ...errorResponses,
  },
};

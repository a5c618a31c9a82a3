import { type Static, Type } from 'typebox';
import { errorResponses, Nullable, strict } from '../../shared/schemas';

const Uid = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const params = Type.Object({ uid: Uid }, strict);

export const ConsentViewSchema = Type.Object(
  {
    uid: Type.String(),
    client: Type.Object({
      clientId: Type.String(),
      name: Nullable(Type.String()),
      logoUri: Nullable(Type.String()),
    }),
    scopes: Type.Array(Type.String(), { description: 'the scopes the client asks for and has not been granted' }),
    claims: Type.Array(Type.String(), { description: 'individual claims asked for beyond the scopes' }),
  },
  { $id: 'OidcConsentView', title: 'OidcConsentView' },
);
export type ConsentView = Static<typeof ConsentViewSchema>;

export const GetInteraction = {
  tags: ['oidc-provider'],
  summary: 'What a relying party asks the signed-in user to allow (for the hosted consent page)',
  description:
    'The authorization request `uid` waiting for the consent of the signed-in user: the client (name, logo) and ' +
    'the scopes and claims it asks for. 404 INTERACTION_NOT_FOUND when there is none for this user (expired, ' +
    'answered, another user’s, or not at its consent step). docs/oidc-provider.md.',
  params,
  response: { 200: ConsentViewSchema, ...errorResponses },
};

export const PostConsent = {
  tags: ['oidc-provider'],
  summary: 'The signed-in user allows or refuses a relying party’s request',
  description:
    'Answers where the browser goes next (`redirectTo`): the provider, which sends it back to the client with a ' +
    'code (allowed) or `access_denied` (refused). docs/oidc-provider.md.',
  params,
  body: Type.Object({ approve: Type.Boolean() }, strict),
  response: { 200: Type.Object({ redirectTo: Type.String() }), ...errorResponses },
};

export const ContinueInteraction = {
  tags: ['oidc-provider'],
  summary: 'The browser step of an authorization request (a redirect)',
  description:
    'Where the provider sends the browser when it needs the user: signed in, the request goes on (302 to the ' +
    'provider); signed out, 302 to the hosted sign-in page, which comes back here; a third-party client’s ' +
    'consent, 302 to the hosted consent page; a request not found, 302 to the hosted error page ' +
    '(`?error=INTERACTION_NOT_FOUND`). docs/oidc-provider.md.',
  params,
  response: { 302: Type.Null({ description: 'redirect (Location)' }), ...errorResponses },
};

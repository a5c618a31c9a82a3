import { Type } from 'typebox';
import { errorResponses, Nullable, strict } from '../../shared/schemas';

/** `/introspect/batch` answers at most this many tokens per call (documented in docs/sessions.md). */
export const INTROSPECT_BATCH_MAX = 100;

const Token = Type.String({ minLength: 1, maxLength: 4096 });

export const IntrospectionSchema = Type.Object(
  {
    active: Type.Boolean(),
    token_type: Type.Optional(Type.Union([Type.Literal('session_token'), Type.Literal('jwt')])),
    sub: Type.Optional(Type.String()),
    sid: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    iss: Type.Optional(Type.String()),
    aud: Type.Optional(Type.String()),
    jti: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    role: Type.Optional(Type.String()),
    activeOrganizationId: Type.Optional(Nullable(Type.String())),
    impersonatedBy: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'Introspection', title: 'Introspection' },
);

const description =
  'Service credential required (x-api-key). RFC 7662 shape: { active: false } for anything invalid, expired or ' +
  'revoked; revocations show at once. A JWT must verify and its sid must name a live session of its sub.';

export const Introspect = {
  tags: ['introspection'],
  summary: 'Is this session token or GET /token JWT active, and whose is it?',
  description,
  body: Type.Object({ token: Token }, strict),
  response: { 200: IntrospectionSchema, ...errorResponses },
};

export const IntrospectBatch = {
  tags: ['introspection'],
  summary: `Introspect up to ${INTROSPECT_BATCH_MAX} tokens at once; answers in the same order`,
  description,
  body: Type.Object({ tokens: Type.Array(Token, { minItems: 1, maxItems: INTROSPECT_BATCH_MAX }) }, strict),
  response: { 200: Type.Object({ results: Type.Array(IntrospectionSchema) }), ...errorResponses },
};

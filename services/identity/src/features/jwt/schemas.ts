import { Type } from 'typebox';
import { errorResponses } from '../../shared/schemas';

export const GetToken = {
  tags: ['jwt'],
  summary: 'A short-lived signed JWT for the current session (cookie or Authorization: Bearer)',
  description:
    'Claims: iss (PUBLIC_URL), aud, sub (user id), sid (session id), email, role, activeOrganizationId, ' +
    'activeOrganizationRole, impersonatedBy, iat, exp (jwt.expiresInSec, never past the session), jti; header kid. ' +
    'Verify with the keys of GET /jwks.',
  response: { 200: Type.Object({ token: Type.String() }), ...errorResponses },
};

const Jwk = Type.Object(
  {
    kid: Type.String(),
    kty: Type.String(),
    alg: Type.String(),
    use: Type.String(),
    crv: Type.Optional(Type.String()),
    x: Type.Optional(Type.String()),
    y: Type.Optional(Type.String()),
    n: Type.Optional(Type.String()),
    e: Type.Optional(Type.String()),
  },
  { $id: 'Jwk', title: 'Jwk' },
);

export const GetJwks = {
  tags: ['jwt'],
  summary: 'The public keys that verify GET /token JWTs (JSON Web Key Set)',
  description: 'The active key and retired keys until every token they signed has expired.',
  response: { 200: Type.Object({ keys: Type.Array(Jwk) }), ...errorResponses },
};

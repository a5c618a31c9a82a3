import { Type } from 'typebox';
import {
  errorResponses,
  ListedSessionSchema,
  Nullable,
  SessionWithUserSchema,
  StatusSchema,
  SuccessSchema,
  strict,
} from '../../shared/schemas';

const Flag = Type.Optional(Type.Boolean());

export const GetSession = {
  tags: ['session'],
  summary: 'The current session and user, or null (session cookie or Authorization: Bearer)',
  description:
    'May answer from the signed session-cache cookie (up to its max age, 60 s by default) or the Redis cache, ' +
    'which revocation clears at once. disableCookieCache=true skips the cookie cache; disableRefresh=true never renews.',
  querystring: Type.Object({ disableCookieCache: Flag, disableRefresh: Flag }, strict),
  response: { 200: Nullable(SessionWithUserSchema), ...errorResponses },
};

export const SignOut = {
  tags: ['session'],
  summary: 'End the current session and clear its cookies',
  response: { 200: SuccessSchema, ...errorResponses },
};

export const ListSessions = {
  tags: ['session'],
  summary: "The signed-in user's active sessions, each with how it was made",
  description:
    'Each session also says how it was made (signInMethod, secondFactor; null for a session made before they ' +
    'were recorded). Impersonation sessions are not listed.',
  response: { 200: Type.Array(ListedSessionSchema), ...errorResponses },
};

export const RevokeSession = {
  tags: ['session'],
  summary: 'Revoke one of your own sessions by its token',
  body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const RevokeSessions = {
  tags: ['session'],
  summary: 'Revoke all of your sessions, this one included',
  response: { 200: StatusSchema, ...errorResponses },
};

export const RevokeOtherSessions = {
  tags: ['session'],
  summary: 'Revoke all of your sessions except this one',
  response: { 200: StatusSchema, ...errorResponses },
};

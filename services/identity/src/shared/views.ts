import type { Static } from 'typebox';
import type { ApiKeySchema, ListedSessionSchema, SessionSchema, SessionWithUserSchema, UserSchema } from './schemas';

/**
 * What clients see of a user, a session and an API key: the types are the response schemas' (schemas.ts), so
 * a field the code produces and the schema lacks, or the other way, is a type error. Dates are ISO strings
 * throughout, so a view goes from a database row, a Redis entry or the cache cookie to the response without
 * conversion on the hot path.
 */
export type UserView = Static<typeof UserSchema>;

/** A session as clients get it, with what the service keeps to itself. */
export type SessionView = Static<typeof SessionSchema> & {
  /** Internal (the response schema drops it): false means a browser-session cookie. */
  rememberMe: boolean;
};

export type SessionWithUser = Static<typeof SessionWithUserSchema> & { session: SessionView };

/**
 * A session as the session lists answer it: with how it was made (docs/sessions.md "How a session was made"). Only
 * the lists read it; the session the service holds for a request (SessionView) never carries it.
 */
export type ListedSessionView = Static<typeof ListedSessionSchema> & { rememberMe: boolean };

/** What completed a sign-in that asked for a second factor, as its session records it. */
export type SessionSecondFactor = NonNullable<ListedSessionView['secondFactor']>;

/** An API key as every route answers it. Never the key. */
export type ApiKeyView = Static<typeof ApiKeySchema>;

/** Where a request came from, as stored on a session. */
export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

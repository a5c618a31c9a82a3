import type { Permissions } from '../access';
/**
 * What clients see of a session and a user. Dates are ISO strings throughout, so a view goes from a
 * database row, a Redis entry or the cache cookie to the response without conversion on the hot path.
 */
export interface SessionView {
  id: string;
  token: string;
  userId: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy: string | null;
  activeOrganizationId: string | null;
  /** Internal (not in responses): false means a browser-session cookie. */
  rememberMe: boolean;
}

export interface UserView {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  role: string;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  /** spec §1 language enumeration name, or null (mail falls back to Accept-Language, then ENG). */
  language: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionWithUser {
  session: SessionView;
  user: UserView;
}

/** An API key as every route answers it (better-auth's fields; `organizationId` is our addition). Never the key. */
export interface ApiKeyView {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  userId: string | null;
  organizationId: string | null;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: string | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown> | null;
  permissions: Permissions | null;
}

/** Where a request came from, as stored on a session. */
export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

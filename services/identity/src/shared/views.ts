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

import { isoOf, isoOrNull } from '../shared/pg-time';
import type { UserView } from '../shared/views';

/** The `users` columns every user view is read from, for a query that names the table `u`. */
export const USER_COLUMNS =
  'u.id, u.email, u.email_verified, u.name, u.image, u.role, u.banned, u.ban_reason, u.ban_expires, u.two_factor_enabled, u.passkey_count, u.language, u.created_at, u.updated_at';

/** A row of USER_COLUMNS as clients see a user. */
export function toUserView(r: Record<string, unknown>): UserView {
  return {
    id: r.id as string,
    email: r.email as string,
    emailVerified: r.email_verified as boolean,
    name: r.name as string,
    image: (r.image as string | null) ?? null,
    role: r.role as string,
    banned: r.banned as boolean,
    banReason: (r.ban_reason as string | null) ?? null,
    banExpires: isoOrNull(r.ban_expires as Date | string | null),
    language: (r.language as string | null) ?? null,
    twoFactorEnabled: r.two_factor_enabled as boolean,
    passkeyCount: Number(r.passkey_count),
    createdAt: isoOf(r.created_at as Date | string),
    updatedAt: isoOf(r.updated_at as Date | string),
  };
}

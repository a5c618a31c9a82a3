import { isoOf, isoOrNull } from '../shared/pg-time';
import type { UserView } from '../shared/views';

/**
 * The `users` column each property of a user view (UserSchema, shared/schemas.ts) is read from: the one list of the
 * user's columns, which every query reading a user takes its select or RETURNING list from. `satisfies` keeps it to
 * the view's properties at compile time; db/user-row.test.ts checks it against UserSchema, the migrated schema and
 * toUserView.
 */
export const USER_COLUMN_OF = {
  id: 'id',
  email: 'email',
  emailVerified: 'email_verified',
  name: 'name',
  image: 'image',
  role: 'role',
  banned: 'banned',
  banReason: 'ban_reason',
  banExpires: 'ban_expires',
  language: 'language',
  twoFactorEnabled: 'two_factor_enabled',
  passkeyCount: 'passkey_count',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof UserView, string>;

/** The user's columns as a select list, each qualified by the table's alias when one is given. */
export const userColumns = (alias?: string): string =>
  Object.values(USER_COLUMN_OF)
    .map((column) => (alias ? `${alias}.${column}` : column))
    .join(', ');

/** For a query that names the table `u` (`FROM users u`, `JOIN users u`). */
export const USER_COLUMNS = userColumns('u');
/** Unqualified: the RETURNING list of an INSERT or UPDATE of `users`. */
export const USER_RETURNING = userColumns();

/** A row of the user's columns as clients see a user. */
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

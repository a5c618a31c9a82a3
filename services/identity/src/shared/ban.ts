import type { UserView } from './views';

/**
 * docs/SPEC.md §4 Ban: a ban without an end, or whose end is still ahead, is in force; one whose end has passed is
 * no ban (the sign-in seam clears it at the user's next sign-in). This is the one rule: the sign-in seam, session
 * creation and lookups and API keys ask `banInForce`; the SQL that lists, counts or checks banned users embeds
 * `banInForceSql`, and a test holds the two to the same answers.
 */
export function banInForce(user: Pick<UserView, 'banned' | 'banExpires'>, now: number): boolean {
  return user.banned && (user.banExpires === null || Date.parse(user.banExpires) > now);
}

/**
 * `banInForce` as an SQL condition on a `users` row: `now` is the SQL expression of the current time (a parameter
 * such as `$2`, or `now()` where the database's clock decides), `alias` the row's table alias if any.
 */
export function banInForceSql(now: string, alias?: string): string {
  const c = alias ? `${alias}.` : '';
  return `(${c}banned AND (${c}ban_expires IS NULL OR ${c}ban_expires > ${now}))`;
}

import { toUserView, USER_COLUMNS } from '../../db/user-row';
import { BoundedMap } from '../../shared/bounded-map';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { ListPlan } from './list-query';

export interface BanFields {
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
}

/**
 * All users, exact, from the counter the triggers keep (16 rows summed, not 200,000 counted), and the users' change
 * stamp: a sum that grows in every transaction that writes users (migrations 1795300000200, 1795600000100).
 */
export const USER_COUNTER = 'SELECT coalesce(sum(n), 0) AS users, coalesce(sum(changes), 0) AS stamp FROM user_counts';

/** A search's exact total and the change stamp it was counted at: while the stamp is the same, so is the total. */
export interface KnownTotal {
  stamp: string;
  total: number;
}

/**
 * list-users statements (exported for the benchmark's EXPLAIN ANALYZE and the plan tests).
 *
 * A text search answers its page and its exact total in one statement, by one of two plans:
 * - `sorted` (few matches): the matches are found once (trigram bitmap scan, forced by the MATERIALIZED CTE),
 *   counted, and sorted for the page: cost bounded by the matches. Left to itself the planner may walk a sort
 *   index and filter, which is unbounded when its match estimate is too high (seen with 200,000 users: 45 ms
 *   instead of 2 ms).
 * - `walked` (many matches): the matches are counted (by words for a one-word text: `byWords`), and the page walks
 *   the sort index, stopping at the page's last row: about (offset + limit) × users / matches rows, less than
 *   sorting every match (10,000 matches: 17 ms → 13 ms when the count read every match; 4.5 ms by words).
 * The page of `walked` filters on `plan.walkWhere` (the search as one condition on the whole text), so that the
 * planner sees how many rows match and walks; `walk` alone is for plans without a text search (it does not
 * reference a search's probe parameters).
 * Both also answer the user count and the change stamp (USER_COUNTER), so the answer says which plan the next
 * request for the same search should take (`walkIsCheaper`). Without a text search the page walks the sort index
 * and the count runs beside it (`walk`, `count`); with no filter at all the total is the counter.
 * `walked` and `count` take a `known` total: when the stamp read in the statement (its own snapshot) is the known
 * one, no user changed since that total was counted, and it is answered without counting (the count is an InitPlan
 * in the CASE branch not taken, which PostgreSQL never runs). `sorted` counts the matches it reads anyway.
 * Every statement's rows are the page's users; `sorted` and `walked` add `total`, `users` and `stamp` to each row,
 * and answer one row with a null id when the page is empty.
 */
export function listUsersSql(plan: ListPlan, known: KnownTotal | null = null) {
  const n = plan.params.length;
  const paging = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...plan.params, plan.limit, plan.offset];
  const { sortColumn: key, direction: dir } = plan;
  const reuse = [known?.stamp ?? null, known?.total ?? null];
  const counted = (at: number) => `SELECT CASE WHEN k.stamp = $${at}::numeric THEN $${at + 1}::bigint
      ${byWords(plan)} ELSE (SELECT count(*) FROM users u ${plan.where}) END AS total, k.users, k.stamp
      FROM (${USER_COUNTER}) k`;
  const count = { text: counted(n + 1), params: [...plan.params, ...reuse] };
  const walk = { text: `SELECT ${USER_COLUMNS} FROM users u ${plan.walkWhere} ${plan.orderBy} ${paging}`, params };
  const walked = {
    text: `SELECT c.total, c.users, c.stamp, w.* FROM (${counted(n + 3)}) c
      LEFT JOIN (${walk.text}) w ON true ORDER BY w.${key} ${dir}, w.id ${dir}`,
    params: [...params, ...reuse],
  };
  // Only id and the sort key are carried through the sort; the page's rows are read at the end.
  const carried = key === 'id' ? 'u.id' : `u.id, u.${key}`;
  const sorted = {
    text: `WITH m AS MATERIALIZED (SELECT ${carried} FROM users u ${plan.where}),
      p AS (SELECT m.* FROM m ${plan.orderBy} ${paging})
      SELECT c.total, c.users, c.stamp, ${USER_COLUMNS}
      FROM (SELECT (SELECT count(*) FROM m) AS total, k.users, k.stamp FROM (${USER_COUNTER}) k) c
      LEFT JOIN (p JOIN users u ON u.id = p.id) ON true ORDER BY u.${key} ${dir}, u.id ${dir}`,
    params,
  };
  return { sorted, walked, walk, count };
}

/**
 * The CASE branch that counts a contains search by words (migrations 1795600000200, 1795700000100, 1796100000100),
 * when its text is three or more letters and digits in each field's form (lowercase for the email, folded for the
 * name; the database's `[[:alnum:]]`, as the words were split): such a text lies inside one word, so the users
 * holding a word that contains it are the users that match. The words come from each field's trigram index on
 * `search_words`, with their number of users (sum(n) over their slots), and no users row is read. One word held by
 * anyone (a first name, a domain): that number. Several (`oli`: olivia and oliver; or a word of each field, for
 * searchField any): a user holding two of them counts once, so their users are counted from the primary key of
 * `user_words` (index-only).
 */
function byWords(plan: ListPlan): string {
  if (!plan.wordSearch) return '';
  const sides = plan.wordSearch;
  const texts = sides.map((s) => `${s.pattern} ~ '^%[[:alnum:]]{3,}%$'`).join(' AND ');
  const words = sides
    .map(
      (s) => `SELECT sw.field, sw.word, sum(sw.n) AS held FROM search_words sw
        WHERE sw.field = ${s.field} AND sw.word LIKE ${s.pattern} GROUP BY sw.field, sw.word HAVING sum(sw.n) > 0`,
    )
    .join(' UNION ALL ');
  const holders = sides
    .map(
      (s) => `SELECT uw.user_id FROM user_words uw
          WHERE uw.field = ${s.field} AND uw.word = ANY (array_agg(ws.word) FILTER (WHERE ws.field = ${s.field}))`,
    )
    .join(' UNION ALL ');
  return `WHEN ${texts} THEN (
      SELECT CASE WHEN count(*) <= 1 THEN coalesce(sum(ws.held), 0)::bigint
        ELSE (SELECT count(DISTINCT h.user_id) FROM (${holders}) h) END
      FROM (${words}) ws)`;
}

/** Sort columns with a (column, id) index that a walk can follow (migrations 1795262258691, 1795300000100). */
const WALKABLE = new Set(['created_at', 'name', 'id']);

/** Walking the sort index reads fewer rows than reading every match: (offset + limit) × users / matches < matches. */
export function walkIsCheaper(plan: ListPlan, matches: number, users: number): boolean {
  return WALKABLE.has(plan.sortColumn) && matches * matches > (plan.offset + plan.limit) * users;
}

/** What the last answer to a search said: its match and user counts and the change stamp they were read at. */
interface Seen {
  matches: number;
  users: number;
  stamp: string;
}

/** The admin-only fields of users (spec §3: role and ban fields, never set through normal input) and listings. */
export class AdminRepository {
  /** Recent searches' counts, to pick each search's plan and reuse its total (bounded; per instance). */
  private readonly searches = new BoundedMap<string, Seen>(1000);

  /** `reuseTotals`: answer a search's total from `searches` while the change stamp is unchanged (config ADMIN_LIST_TOTAL_REUSE). */
  constructor(
    private readonly sql: Sql,
    private readonly reuseTotals = true,
  ) {}

  async setRole(userId: string, role: string, now: Date, sql: Sql = this.sql): Promise<UserView | null> {
    const rows = await sql.query(
      `UPDATE users u SET role = $2, updated_at = $3 WHERE u.id = $1 RETURNING ${USER_COLUMNS}`,
      [userId, role, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async setBan(userId: string, ban: BanFields, now: Date, sql: Sql = this.sql): Promise<UserView | null> {
    const rows = await sql.query(
      `UPDATE users u SET banned = $2, ban_reason = $3, ban_expires = $4, updated_at = $5
       WHERE u.id = $1 RETURNING ${USER_COLUMNS}`,
      [userId, ban.banned, ban.banReason, ban.banExpires, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /** Lifts a ban only if it is still the lapsed one (a concurrent re-ban is not undone). */
  async liftLapsedBan(userId: string, now: Date, sql: Sql = this.sql): Promise<UserView | null> {
    const rows = await sql.query(
      `UPDATE users u SET banned = false, ban_reason = NULL, ban_expires = NULL, updated_at = $2
       WHERE u.id = $1 AND u.banned AND u.ban_expires IS NOT NULL AND u.ban_expires <= $2 RETURNING ${USER_COLUMNS}`,
      [userId, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async listUsers(plan: ListPlan): Promise<{ users: UserView[]; total: number }> {
    // A page's timestamps come as text and are rearranged into ISO text (isoFromPg), not parsed into Dates.
    const page = (stmt: { text: string; params: unknown[] }) =>
      this.sql.query(stmt.text, stmt.params, { timestamptzAsText: true });
    const rowsOf = (stmt: { text: string; params: unknown[] }) => page(stmt).then((rows) => rows.map(toUserView));
    if (!plan.where) {
      const [users, total] = await Promise.all([rowsOf(listUsersSql(plan).walk), this.userCount()]);
      return { users, total };
    }
    // The plan comes from the counts of the last answer to this search (sorted when there is none): a stale
    // count can only cost time, never change an answer, and each answer corrects it. Its total is reused only
    // when the statement reads the same change stamp.
    const key = `${plan.where}\u0000${JSON.stringify(plan.params)}`;
    const seen = this.searches.get(key);
    const known = seen && this.reuseTotals ? { stamp: seen.stamp, total: seen.matches } : null;
    const { sorted, walked, walk, count } = listUsersSql(plan, known);
    const remember = (row: Record<string, unknown>) => {
      const total = Number(row.total);
      this.searches.set(key, { matches: total, users: Number(row.users), stamp: String(row.stamp) });
      return total;
    };
    if (!plan.textSearch) {
      const counting = this.sql.query(count.text, count.params).then((rows) => remember(rows[0]));
      const [users, total] = await Promise.all([rowsOf(walk), counting]);
      return { users, total };
    }
    const stmt = seen && walkIsCheaper(plan, seen.matches, seen.users) ? walked : sorted;
    const rows = await page(stmt);
    const total = remember(rows[0]);
    return { users: rows.filter((r) => r.id !== null).map(toUserView), total };
  }

  /** All users, exact (USER_COUNTER). */
  async userCount(): Promise<number> {
    const rows = await this.sql.query<{ users: string }>(USER_COUNTER);
    return Number(rows[0].users);
  }
}

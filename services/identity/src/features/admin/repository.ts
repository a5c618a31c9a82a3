import { BoundedMap } from '../../shared/bounded-map';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import { toUserView, USER_COLUMNS } from '../session/repository';
import type { ListPlan } from './list-query';

export interface BanFields {
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
}

/** All users, exact, from the counter the triggers keep (16 rows summed, not 200,000 counted). */
export const USER_TOTAL = 'SELECT coalesce(sum(n), 0) AS total FROM user_counts';

/**
 * list-users statements (exported for the benchmark's EXPLAIN ANALYZE and the plan tests).
 *
 * A text search answers its page and its exact total in one statement, by one of two plans:
 * - `sorted` (few matches): the matches are found once (trigram bitmap scan, forced by the MATERIALIZED CTE),
 *   counted, and sorted for the page: cost bounded by the matches. Left to itself the planner may walk a sort
 *   index and filter, which is unbounded when its match estimate is too high (seen with 200,000 users: 45 ms
 *   instead of 2 ms).
 * - `walked` (many matches): the matches are counted, and the page walks the sort index, stopping at the page's
 *   last row: about (offset + limit) × users / matches rows, less than sorting every match (10,000 matches:
 *   17 ms → 13 ms, most of it the count).
 * Both also answer the user count (the trigger-kept counter, migration 1795300000200), so the answer says which plan
 * the next request for the same search should take (`walkIsCheaper`). Without a text search the page walks the
 * sort index and the count runs beside it (`walk`, `count`); with no filter at all the total is the counter.
 * Every statement's rows are the page's users; `sorted` and `walked` add `total` and `users` to each row, and answer
 * one row with a null id when the page is empty.
 */
export function listUsersSql(plan: ListPlan) {
  const n = plan.params.length;
  const paging = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...plan.params, plan.limit, plan.offset];
  const { sortColumn: key, direction: dir } = plan;
  const count = { text: `SELECT count(*) AS total FROM users u ${plan.where}`, params: plan.params };
  const walk = { text: `SELECT ${USER_COLUMNS} FROM users u ${plan.where} ${plan.orderBy} ${paging}`, params };
  const counts = (matches: string) => `SELECT (${matches}) AS total, (${USER_TOTAL}) AS users`;
  const walked = {
    text: `SELECT c.total, c.users, w.* FROM (${counts(`SELECT count(*) FROM users u ${plan.where}`)}) c
      LEFT JOIN (${walk.text}) w ON true ORDER BY w.${key} ${dir}, w.id ${dir}`,
    params,
  };
  // Only id and the sort key are carried through the sort; the page's rows are read at the end.
  const carried = key === 'id' ? 'u.id' : `u.id, u.${key}`;
  const sorted = {
    text: `WITH m AS MATERIALIZED (SELECT ${carried} FROM users u ${plan.where}),
      p AS (SELECT m.* FROM m ${plan.orderBy} ${paging})
      SELECT c.total, c.users, ${USER_COLUMNS} FROM (${counts('SELECT count(*) FROM m')}) c
      LEFT JOIN (p JOIN users u ON u.id = p.id) ON true ORDER BY u.${key} ${dir}, u.id ${dir}`,
    params,
  };
  return { sorted, walked, walk, count };
}

/** Sort columns with a (column, id) index that a walk can follow (migrations 1795262258691, 1795300000100). */
const WALKABLE = new Set(['created_at', 'name', 'id']);

/** Walking the sort index reads fewer rows than reading every match: (offset + limit) × users / matches < matches. */
export function walkIsCheaper(plan: ListPlan, matches: number, users: number): boolean {
  return WALKABLE.has(plan.sortColumn) && matches * matches > (plan.offset + plan.limit) * users;
}

/** What the last answer to a search said: its match and user counts (only ever used to pick a plan). */
interface Seen {
  matches: number;
  users: number;
}

/** The admin-only fields of users (spec §3: role and ban fields, never set through normal input) and listings. */
export class AdminRepository {
  /** Recent searches' counts, to pick each search's plan (bounded; per instance). */
  private readonly searches = new BoundedMap<string, Seen>(1000);

  constructor(private readonly sql: Sql) {}

  async setRole(userId: string, role: string, now: Date): Promise<UserView | null> {
    const rows = await this.sql.query(
      `UPDATE users u SET role = $2, updated_at = $3 WHERE u.id = $1 RETURNING ${USER_COLUMNS}`,
      [userId, role, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async setBan(userId: string, ban: BanFields, now: Date): Promise<UserView | null> {
    const rows = await this.sql.query(
      `UPDATE users u SET banned = $2, ban_reason = $3, ban_expires = $4, updated_at = $5
       WHERE u.id = $1 RETURNING ${USER_COLUMNS}`,
      [userId, ban.banned, ban.banReason, ban.banExpires, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /** Lifts a ban only if it is still the lapsed one (a concurrent re-ban is not undone). */
  async liftLapsedBan(userId: string, now: Date): Promise<UserView | null> {
    const rows = await this.sql.query(
      `UPDATE users u SET banned = false, ban_reason = NULL, ban_expires = NULL, updated_at = $2
       WHERE u.id = $1 AND u.banned AND u.ban_expires IS NOT NULL AND u.ban_expires <= $2 RETURNING ${USER_COLUMNS}`,
      [userId, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async banState(userId: string): Promise<UserView | null> {
    const rows = await this.sql.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [userId]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async listUsers(plan: ListPlan): Promise<{ users: UserView[]; total: number }> {
    const { sorted, walked, walk, count } = listUsersSql(plan);
    const rowsOf = (stmt: { text: string; params: unknown[] }) =>
      this.sql.query(stmt.text, stmt.params).then((rows) => rows.map(toUserView));
    if (!plan.where) {
      const [users, total] = await Promise.all([rowsOf(walk), this.userCount()]);
      return { users, total };
    }
    if (!plan.textSearch) {
      const counting = this.sql.query<{ total: string }>(count.text, count.params).then((r) => Number(r[0].total));
      const [users, total] = await Promise.all([rowsOf(walk), counting]);
      return { users, total };
    }
    // The plan comes from the counts of the last answer to this search (sorted when there is none): a stale
    // count can only cost time, never change an answer, and each answer corrects it.
    const key = `${plan.where}\u0000${JSON.stringify(plan.params)}`;
    const seen = this.searches.get(key);
    const stmt = seen && walkIsCheaper(plan, seen.matches, seen.users) ? walked : sorted;
    const rows = await this.sql.query(stmt.text, stmt.params);
    const total = Number(rows[0].total);
    this.searches.set(key, { matches: total, users: Number(rows[0].users) });
    return { users: rows.filter((r) => r.id !== null).map(toUserView), total };
  }

  /** All users, exact (USER_TOTAL). */
  async userCount(): Promise<number> {
    const rows = await this.sql.query<{ total: string }>(USER_TOTAL);
    return Number(rows[0].total);
  }
}

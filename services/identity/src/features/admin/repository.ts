import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import { toUserView, USER_COLUMNS } from '../session/repository';
import type { ListPlan } from './list-query';

export interface BanFields {
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
}

/**
 * list-users statements (exported for the benchmark's EXPLAIN ANALYZE).
 *
 * With a text search, one statement: the matches are found first (trigram bitmap scan, forced by the
 * MATERIALIZED CTE), then counted by a window and sorted for the page. Its cost is bounded by the number of
 * matches; left to itself the planner may walk a sort index and filter, which is unbounded when its match
 * estimate is too high (seen with 200,000 users: 45 ms instead of 2 ms).
 * Without one, the page walks the sort index and the count runs beside it.
 */
export function listUsersSql(plan: ListPlan) {
  const n = plan.params.length;
  const paging = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...plan.params, plan.limit, plan.offset];
  const count = { text: `SELECT count(*) AS total FROM users u ${plan.where}`, params: plan.params };
  if (plan.textSearch) {
    // Only id and the sort key are carried through the count and sort; the page's 100 rows are read at the end.
    const { sortColumn: key, direction: dir } = plan;
    const carried = key === 'id' ? 'u.id' : `u.id, u.${key}`;
    const text = `WITH m AS MATERIALIZED (SELECT ${carried} FROM users u ${plan.where}),
      p AS (SELECT m.*, count(*) OVER () AS total_count FROM m ${plan.orderBy} ${paging})
      SELECT ${USER_COLUMNS}, p.total_count FROM p JOIN users u ON u.id = p.id ORDER BY u.${key} ${dir}, u.id ${dir}`;
    return { page: { text, params }, count, windowCount: true };
  }
  const text = `SELECT ${USER_COLUMNS} FROM users u ${plan.where} ${plan.orderBy} ${paging}`;
  return { page: { text, params }, count, windowCount: false };
}

export interface LinkedAccount {
  id: string;
  providerId: string;
  accountId: string;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
}

/** The admin-only fields of users (spec §3: role and ban fields, never set through normal input) and listings. */
export class AdminRepository {
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

  /**
   * A user's accounts as operators see them. The account feature has no listing for another user yet (issue 4 adds
   * the signed-in user's list-accounts), so this read-only query names its columns: tokens and the hash never leave.
   */
  async listAccounts(userId: string): Promise<LinkedAccount[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT id, provider_id, account_id, scope, created_at, updated_at FROM accounts
       WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map((r) => ({
      id: r.id as string,
      providerId: r.provider_id as string,
      accountId: r.account_id as string,
      scopes:
        typeof r.scope === 'string'
          ? r.scope
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
      createdAt: (r.created_at as Date).toISOString(),
      updatedAt: (r.updated_at as Date).toISOString(),
    }));
  }

  async banState(userId: string): Promise<UserView | null> {
    const rows = await this.sql.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [userId]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async listUsers(plan: ListPlan): Promise<{ users: UserView[]; total: number }> {
    const { page, count, windowCount } = listUsersSql(plan);
    const counting = () => this.sql.query<{ total: string }>(count.text, count.params).then((r) => Number(r[0].total));
    if (!windowCount) {
      const [rows, total] = await Promise.all([this.sql.query(page.text, page.params), counting()]);
      return { users: rows.map(toUserView), total };
    }
    const rows = await this.sql.query(page.text, page.params);
    if (rows.length) return { users: rows.map(toUserView), total: Number(rows[0].total_count) };
    return { users: [], total: plan.offset === 0 ? 0 : await counting() }; // a page past the end carries no count
  }
}

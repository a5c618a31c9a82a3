import { banInForceSql } from '../../shared/ban';
import type { Sql } from '../../shared/sql';

export interface StatCounts {
  users: number;
  newUsers7d: number;
  activeSessions: number;
  bannedUsers: number;
  organizations: number;
}

/**
 * The dashboard's figures, each from an index or a counter so they stay cheap with many users: the user count from
 * `user_counts` (kept by triggers), recent sign-ups from `users (created_at, id)`, live sessions from
 * `sessions (expires_at)`, bans in force from the partial `users_banned_idx`.
 */
export class StatsRepository {
  constructor(private readonly sql: Sql) {}

  async counts(now: Date, weekAgo: Date): Promise<StatCounts> {
    const [row] = await this.sql.query<Record<keyof StatCounts, string>>(
      `SELECT (SELECT coalesce(sum(n), 0) FROM user_counts) AS "users",
              (SELECT count(*) FROM users WHERE created_at >= $2) AS "newUsers7d",
              (SELECT count(*) FROM sessions WHERE expires_at > $1) AS "activeSessions",
              (SELECT count(*) FROM users WHERE ${banInForceSql('$1')}) AS "bannedUsers",
              (SELECT count(*) FROM organizations) AS "organizations"`,
      [now, weekAgo],
    );
    return {
      users: Number(row.users),
      newUsers7d: Number(row.newUsers7d),
      activeSessions: Number(row.activeSessions),
      bannedUsers: Number(row.bannedUsers),
      organizations: Number(row.organizations),
    };
  }

  /** Sign-ups per UTC day since `from` (days without any are absent). */
  async signUpsPerDay(from: Date): Promise<Map<string, number>> {
    const rows = await this.sql.query<{ day: string; count: number }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
       FROM users WHERE created_at >= $1 GROUP BY 1`,
      [from],
    );
    return new Map(rows.map((r) => [r.day, r.count]));
  }
}

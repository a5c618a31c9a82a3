import { toUserView, USER_COLUMNS } from '../../db/user-row';
import { banInForceSql } from '../../shared/ban';
import { isoOf } from '../../shared/pg-time';
import type { Sql } from '../../shared/sql';
import { TickBatcher } from '../../shared/tick-batcher';
import type { ListedSessionView, SessionSecondFactor, SessionView, SessionWithUser } from '../../shared/views';

const SESSION_COLUMNS =
  's.id AS s_id, s.token, s.user_id, s.expires_at, s.remember_me, s.ip_address, s.user_agent, s.impersonated_by, s.active_organization_id, s.created_at AS s_created_at, s.updated_at AS s_updated_at';

/**
 * How a session was made: read by the session lists only, never by the lookups (the get-session body, its Redis
 * entry and its cookie carry the session without it).
 */
const SIGN_IN_COLUMNS = 's.sign_in_method, s.second_factor';

type Row = Record<string, unknown>;

/** A row of SESSION_COLUMNS as the service holds a session: the one mapper of session rows. */
function toSessionView(r: Row): SessionView {
  return {
    id: r.s_id as string,
    token: r.token as string,
    userId: r.user_id as string,
    expiresAt: isoOf(r.expires_at as Date),
    createdAt: isoOf(r.s_created_at as Date),
    updatedAt: isoOf(r.s_updated_at as Date),
    ipAddress: (r.ip_address as string | null) ?? null,
    userAgent: (r.user_agent as string | null) ?? null,
    impersonatedBy: (r.impersonated_by as string | null) ?? null,
    activeOrganizationId: (r.active_organization_id as string | null) ?? null,
    rememberMe: r.remember_me as boolean,
  };
}

/** A row of SESSION_COLUMNS and SIGN_IN_COLUMNS, as the session lists answer it. */
function toListedSessionView(r: Row): ListedSessionView {
  return {
    ...toSessionView(r),
    signInMethod: (r.sign_in_method as string | null) ?? null,
    secondFactor: (r.second_factor as SessionSecondFactor | null) ?? null,
  };
}

export interface NewSession {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  rememberMe: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy: string | null;
  activeOrganizationId: string | null;
  signInMethod: string;
  secondFactor: SessionSecondFactor | null;
  now: Date;
}

const WITH_USER = `SELECT ${SESSION_COLUMNS}, ${USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id`;
/** Distinct keys per lookup query: the get-session requests of one event-loop turn under load (64 connections). */
const LOOKUP_BATCH = 128;

/** Session rows. Every lookup here is served by an index of the initial migration. */
export class SessionRepository {
  /**
   * The hot lookups (get-session, requireSession, introspection) of one event-loop turn share one query: on the
   * database path that is one PostgreSQL round trip for many requests (README, bench (c)).
   */
  private readonly byToken = new TickBatcher(
    (tokens: string[]) =>
      this.findMany('sessions_with_user_by_tokens', `${WITH_USER} WHERE s.token = ANY($1::text[])`, tokens, 'token'),
    LOOKUP_BATCH,
  );
  private readonly byId = new TickBatcher(
    (ids: string[]) =>
      this.findMany('sessions_with_user_by_ids', `${WITH_USER} WHERE s.id = ANY($1::uuid[])`, ids, 's_id'),
    LOOKUP_BATCH,
  );

  constructor(private readonly sql: Sql) {}

  async findWithUser(token: string): Promise<SessionWithUser | null> {
    return (await this.byToken.load(token)) ?? null;
  }

  /** By session id (a JWT's `sid`, for introspection); `id` must be a UUID (isId). */
  async findWithUserById(id: string): Promise<SessionWithUser | null> {
    return (await this.byId.load(id)) ?? null;
  }

  private async findMany(name: string, text: string, keys: string[], keyColumn: string) {
    const rows = await this.sql.prepared(name, text, [keys]);
    return new Map(rows.map((r) => [r[keyColumn] as string, { session: toSessionView(r), user: toUserView(r) }]));
  }

  /**
   * Writes the session and answers it as the service holds it: from the values written, since the database
   * defaults none of them, so that what follows in the transaction (its audit event, the ban recheck) can be sent
   * with the INSERT instead of after its answer (shared/sql.ts, pipeline mode).
   */
  insert(s: NewSession, sql: Sql = this.sql): { session: SessionView; written: Promise<unknown> } {
    const written = sql.query(
      `INSERT INTO sessions (id, token, user_id, expires_at, remember_me, ip_address, user_agent, impersonated_by, active_organization_id, sign_in_method, second_factor, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
      [
        s.id,
        s.token,
        s.userId,
        s.expiresAt,
        s.rememberMe,
        s.ipAddress,
        s.userAgent,
        s.impersonatedBy,
        s.activeOrganizationId,
        s.signInMethod,
        s.secondFactor,
        s.now,
      ],
    );
    const session: SessionView = {
      id: s.id,
      token: s.token,
      userId: s.userId,
      expiresAt: s.expiresAt.toISOString(),
      createdAt: s.now.toISOString(),
      updatedAt: s.now.toISOString(),
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
      impersonatedBy: s.impersonatedBy,
      activeOrganizationId: s.activeOrganizationId,
      rememberMe: s.rememberMe,
    };
    return { session, written };
  }

  /**
   * Whether a ban of the user is in force at `now` (shared/ban.ts), asked in a new session's transaction: sent with
   * its INSERT, it sees a ban that committed before the insert took its hold on the user's row.
   */
  async banInForce(userId: string, now: Date, sql: Sql): Promise<boolean> {
    const rows = await sql.query<{ inForce: boolean }>(
      `SELECT ${banInForceSql('$2')} AS "inForce" FROM users WHERE id = $1`,
      [userId, now],
    );
    return rows[0]?.inForce === true;
  }

  /** Sliding renewal; returns false when the row is gone (revoked meanwhile). */
  async extend(id: string, expiresAt: Date, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      'UPDATE sessions SET expires_at = $2, updated_at = $3 WHERE id = $1 RETURNING id',
      [id, expiresAt, now],
    );
    return rows.length > 0;
  }

  async listActive(userId: string, now: Date): Promise<ListedSessionView[]> {
    const rows = await this.sql.query(
      `SELECT ${SESSION_COLUMNS}, ${SIGN_IN_COLUMNS} FROM sessions s
       WHERE s.user_id = $1 AND s.expires_at > $2 ORDER BY s.created_at DESC`,
      [userId, now],
    );
    return rows.map(toListedSessionView);
  }

  async tokenOf(id: string): Promise<string | null> {
    const rows = await this.sql.query<{ token: string }>('SELECT token FROM sessions WHERE id = $1', [id]);
    return rows[0]?.token ?? null;
  }

  /** Deletes and returns the tokens removed, so their cache entries can be dropped. */
  async deleteByToken(token: string, userId?: string): Promise<string[]> {
    const rows = await this.sql.query<{ token: string }>(
      userId
        ? 'DELETE FROM sessions WHERE token = $1 AND user_id = $2 RETURNING token'
        : 'DELETE FROM sessions WHERE token = $1 RETURNING token',
      userId ? [token, userId] : [token],
    );
    return rows.map((r) => r.token);
  }

  /**
   * Deletes one session (only `userId`'s when given) in the caller's transaction; answers what the audit trail
   * names of it, or null when there was none.
   */
  async deleteOne(
    token: string,
    userId: string | null,
    sql: Sql,
  ): Promise<{ id: string; userId: string; impersonatedBy: string | null } | null> {
    const rows = await sql.query<{ id: string; user_id: string; impersonated_by: string | null }>(
      `DELETE FROM sessions WHERE token = $1 AND ($2::uuid IS NULL OR user_id = $2::uuid)
       RETURNING id, user_id, impersonated_by`,
      [token, userId],
    );
    const row = rows[0];
    return row ? { id: row.id, userId: row.user_id, impersonatedBy: row.impersonated_by } : null;
  }

  /**
   * Locks the user's row in the caller's transaction: a session insert checks its user (foreign key, FOR KEY SHARE),
   * so no session of the user can be added until that transaction ends. Taken before the sessions' rows, always.
   */
  async lockUser(userId: string, sql: Sql): Promise<void> {
    await sql.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  }

  async deleteForUser(userId: string, exceptToken?: string, sql: Sql = this.sql): Promise<string[]> {
    const rows = await sql.query<{ token: string }>(
      'DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR token <> $2) RETURNING token',
      [userId, exceptToken ?? null],
    );
    return rows.map((r) => r.token);
  }

  /** Organization feature: the session's active organization; false when the session is gone. */
  async setActiveOrganization(token: string, organizationId: string | null, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query<{ token: string }>(
      'UPDATE sessions SET active_organization_id = $2 WHERE token = $1 RETURNING token',
      [token, organizationId],
    );
    return rows.length > 0;
  }

  /** Clears an active organization on the sessions pointing at it (of these users, or all); returns their tokens. */
  async clearActiveOrganization(
    organizationId: string,
    userIds: readonly string[] | null,
    sql: Sql = this.sql,
  ): Promise<string[]> {
    const rows = await sql.query<{ token: string }>(
      `UPDATE sessions SET active_organization_id = NULL
       WHERE active_organization_id = $1 AND ($2::uuid[] IS NULL OR user_id = ANY($2::uuid[])) RETURNING token`,
      [organizationId, userIds],
    );
    return rows.map((r) => r.token);
  }

  async tokensOf(userId: string, sql: Sql = this.sql): Promise<string[]> {
    const rows = await sql.query<{ token: string }>('SELECT token FROM sessions WHERE user_id = $1', [userId]);
    return rows.map((r) => r.token);
  }

  /** Runs `work` in one transaction (writes of several sessions that must land together). */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async deleteExpired(now: Date, limit = 1000): Promise<string[]> {
    const rows = await this.sql.query<{ token: string }>(
      'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= $1 LIMIT $2) RETURNING token',
      [now, limit],
    );
    return rows.map((r) => r.token);
  }
}

import { isId, newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';
import { type TeamMemberView, type TeamView, toTeam, toTeamMember } from './views';

/** Teams and their members. */
export class TeamRepository {
  constructor(private readonly sql: Sql) {}

  async insert(organizationId: string, name: string, now: Date, sql: Sql = this.sql): Promise<TeamView> {
    const rows = await sql.query(
      'INSERT INTO teams (id, name, organization_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING *',
      [newId(), name, organizationId, now],
    );
    return toTeam(rows[0]);
  }

  /** A team of `organizationId` (locked when asked); a foreign team id finds nothing. */
  async findIn(organizationId: string, teamId: string, sql: Sql = this.sql, lock = false): Promise<TeamView | null> {
    if (!isId(teamId) || !isId(organizationId)) return null;
    const rows = await sql.query(
      `SELECT * FROM teams WHERE id = $1 AND organization_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [teamId, organizationId],
    );
    return rows[0] ? toTeam(rows[0]) : null;
  }

  async list(organizationId: string): Promise<TeamView[]> {
    const rows = await this.sql.query('SELECT * FROM teams WHERE organization_id = $1 ORDER BY created_at, id', [
      organizationId,
    ]);
    return rows.map(toTeam);
  }

  /**
   * The teams `userId` has a place in, only in organizations they are still a member of (better-auth's
   * listUserTeams drops the rest), in one organization when given; oldest first.
   */
  async listForUser(userId: string, organizationId?: string): Promise<TeamView[]> {
    if (!isId(userId) || (organizationId !== undefined && !isId(organizationId))) return [];
    const rows = await this.sql.query(
      `SELECT t.* FROM team_members tm JOIN teams t ON t.id = tm.team_id
       WHERE tm.user_id = $1 AND ($2::uuid IS NULL OR t.organization_id = $2)
         AND EXISTS (SELECT 1 FROM members m WHERE m.organization_id = t.organization_id AND m.user_id = $1)
       ORDER BY t.created_at, t.id`,
      [userId, organizationId ?? null],
    );
    return rows.map(toTeam);
  }

  /** Every team membership in an organization (operators: the console's organization page). */
  async membersIn(organizationId: string): Promise<TeamMemberView[]> {
    const rows = await this.sql.query(
      `SELECT tm.* FROM team_members tm JOIN teams t ON t.id = tm.team_id
       WHERE t.organization_id = $1 ORDER BY tm.created_at, tm.id`,
      [organizationId],
    );
    return rows.map(toTeamMember);
  }

  async count(organizationId: string, sql: Sql = this.sql): Promise<number> {
    const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM teams WHERE organization_id = $1', [
      organizationId,
    ]);
    return rows[0].n;
  }

  async rename(teamId: string, name: string, now: Date, sql: Sql = this.sql): Promise<TeamView | null> {
    const rows = await sql.query('UPDATE teams SET name = $2, updated_at = $3 WHERE id = $1 RETURNING *', [
      teamId,
      name,
      now,
    ]);
    return rows[0] ? toTeam(rows[0]) : null;
  }

  async delete(teamId: string, sql: Sql = this.sql): Promise<void> {
    await sql.query('DELETE FROM teams WHERE id = $1', [teamId]);
  }

  async countMembers(teamId: string, sql: Sql = this.sql): Promise<number> {
    const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1', [
      teamId,
    ]);
    return rows[0].n;
  }

  async findMember(teamId: string, userId: string, sql: Sql = this.sql): Promise<TeamMemberView | null> {
    if (!isId(teamId) || !isId(userId)) return null;
    const rows = await sql.query('SELECT * FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
    return rows[0] ? toTeamMember(rows[0]) : null;
  }

  /** Adds the pair, or returns the row that already holds it. */
  async addMember(teamId: string, userId: string, now: Date, sql: Sql = this.sql): Promise<TeamMemberView> {
    await sql.query(
      `INSERT INTO team_members (id, team_id, user_id, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (team_id, user_id) DO NOTHING`,
      [newId(), teamId, userId, now],
    );
    return (await this.findMember(teamId, userId, sql))!;
  }

  /** Removes the team place; a membership made with this team no longer names it (members.team_id). */
  async removeMember(teamId: string, userId: string, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query(
      `WITH gone AS (DELETE FROM team_members WHERE team_id = $1 AND user_id = $2 RETURNING id),
         cleared AS (UPDATE members SET team_id = NULL
                     WHERE team_id = $1 AND user_id = $2 AND EXISTS (SELECT 1 FROM gone) RETURNING id)
       SELECT id FROM gone`,
      [teamId, userId],
    );
    return rows.length > 0;
  }
}

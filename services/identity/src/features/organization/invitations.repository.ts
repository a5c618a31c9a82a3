import { isId, newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';
import { type InvitationStatus, type InvitationView, toInvitation } from './views';

export interface NewInvitation {
  organizationId: string;
  email: string;
  role: string;
  teamId: string | null;
  inviterId: string;
  expiresAt: Date;
}

/** Invitation rows. Status changes that must happen once are guarded updates (`WHERE status = …`: one of concurrent callers wins). */
export class InvitationRepository {
  constructor(private readonly sql: Sql) {}

  async findById(id: string, sql: Sql = this.sql): Promise<InvitationView | null> {
    if (!isId(id)) return null;
    const rows = await sql.query('SELECT * FROM invitations WHERE id = $1', [id]);
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** The pending invitation for (organization, email), expired or not (the unique index holds at most one). */
  async findPending(organizationId: string, email: string, sql: Sql = this.sql): Promise<InvitationView | null> {
    const rows = await sql.query(
      "SELECT * FROM invitations WHERE organization_id = $1 AND email = $2 AND status = 'pending'",
      [organizationId, email],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  async countLivePending(organizationId: string, now: Date, sql: Sql = this.sql): Promise<number> {
    const rows = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1 AND status = 'pending' AND expires_at > $2",
      [organizationId, now],
    );
    return rows[0].n;
  }

  async insert(i: NewInvitation, now: Date, sql: Sql = this.sql): Promise<InvitationView> {
    const rows = await sql.query(
      `INSERT INTO invitations (id, organization_id, email, role, status, team_id, inviter_id, expires_at, created_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8) RETURNING *`,
      [newId(), i.organizationId, i.email, i.role, i.teamId, i.inviterId, i.expiresAt, now],
    );
    return toInvitation(rows[0]);
  }

  async extend(id: string, expiresAt: Date, sql: Sql = this.sql): Promise<InvitationView | null> {
    const rows = await sql.query(
      "UPDATE invitations SET expires_at = $2 WHERE id = $1 AND status = 'pending' RETURNING *",
      [id, expiresAt],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /**
   * Moves a live pending invitation to `status`: the guard (pending and not expired at `now`) makes two
   * concurrent calls win once. Returns null when the invitation was not live. `acceptedBy`: the user accepting it,
   * recorded until their membership ends (`accepted_by`, for the consistency check).
   */
  async settle(
    id: string,
    status: InvitationStatus,
    now: Date,
    sql: Sql = this.sql,
    acceptedBy: string | null = null,
  ): Promise<InvitationView | null> {
    if (!isId(id)) return null;
    const rows = await sql.query(
      `UPDATE invitations SET status = $2, accepted_by = $4
       WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *`,
      [id, status, now, acceptedBy],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** spec §4: cancel does not check the status. */
  async cancel(id: string, sql: Sql = this.sql): Promise<InvitationView | null> {
    const rows = await sql.query("UPDATE invitations SET status = 'canceled' WHERE id = $1 RETURNING *", [id]);
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** Live pending invitations addressed to `email`, with their organization's name. */
  async listPendingForEmail(email: string, now: Date): Promise<Array<InvitationView & { organizationName: string }>> {
    const rows = await this.sql.query(
      `SELECT i.*, o.name AS organization_name FROM invitations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.email = $1 AND i.status = 'pending' AND i.expires_at > $2 ORDER BY i.created_at, i.id`,
      [email, now],
    );
    return rows.map((r) => ({ ...toInvitation(r), organizationName: r.organization_name as string }));
  }

  async listForOrganization(organizationId: string): Promise<InvitationView[]> {
    const rows = await this.sql.query('SELECT * FROM invitations WHERE organization_id = $1 ORDER BY created_at, id', [
      organizationId,
    ]);
    return rows.map(toInvitation);
  }
}

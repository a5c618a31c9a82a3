import { isId, newId } from '../../crypto/random';
import { toUserView, USER_COLUMNS } from '../../db/user-row';
import { isoOf } from '../../shared/pg-time';
import { normalizeSlug } from '../../shared/slug';
import { escapeLike, type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import {
  type MemberUser,
  type MemberView,
  type OrganizationSummary,
  type OrganizationView,
  toMember,
  toOrganization,
  type UserMembership,
} from './views';

const MEMBER_WITH_USER = `SELECT m.*, u.name AS u_name, u.email AS u_email, u.image AS u_image
  FROM members m JOIN users u ON u.id = m.user_id`;

export interface NewOrganization {
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  /** Update only: organizations are created without the second-factor policy. */
  requireTwoFactor?: boolean;
}

export interface MemberPage {
  limit: number;
  offset: number;
  sortBy: 'createdAt' | 'role';
  direction: 'asc' | 'desc';
  filter?: { field: 'role' | 'userId' | 'id'; operator: 'eq' | 'ne' | 'contains'; value: string };
}

const SORT_COLUMNS = { createdAt: 'm.created_at', role: 'm.role' } as const;
const FILTER_COLUMNS = { role: 'm.role', userId: 'm.user_id::text', id: 'm.id::text' } as const;

/** Organizations and members. Every lookup is served by an index of the organizations migration. */
/** How operators filter and order the list of organizations. */
export interface OrganizationListQuery {
  searchValue?: string;
  sortBy?: 'createdAt' | 'name' | 'memberCount';
  sortDirection?: 'asc' | 'desc';
}

export class OrganizationRepository {
  constructor(private readonly sql: Sql) {}

  async insertOrganization(o: NewOrganization, now: Date, sql: Sql = this.sql): Promise<OrganizationView> {
    const rows = await sql.query(
      'INSERT INTO organizations (id, name, slug, logo, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [newId(), o.name, o.slug, o.logo, o.metadata, now],
    );
    return toOrganization(rows[0]);
  }

  /** `lock`: true locks the row for a change (FOR UPDATE); 'share' keeps it from changing until the commit. */
  async findById(id: string, sql: Sql = this.sql, lock: boolean | 'share' = false): Promise<OrganizationView | null> {
    if (!isId(id)) return null;
    const rows = await sql.query(`SELECT * FROM organizations WHERE id = $1${lockClause(lock)}`, [id]);
    return rows[0] ? toOrganization(rows[0]) : null;
  }

  /** Slugs are stored normalized (slug.ts), so a lookup normalizes what it is given. */
  async findBySlug(
    slug: string,
    sql: Sql = this.sql,
    lock: boolean | 'share' = false,
  ): Promise<OrganizationView | null> {
    const rows = await sql.query(`SELECT * FROM organizations WHERE slug = $1${lockClause(lock)}`, [
      normalizeSlug(slug),
    ]);
    return rows[0] ? toOrganization(rows[0]) : null;
  }

  async updateOrganization(
    id: string,
    data: Partial<NewOrganization>,
    sql: Sql = this.sql,
  ): Promise<OrganizationView | null> {
    const rows = await sql.query(
      `UPDATE organizations SET name = COALESCE($2, name), slug = COALESCE($3, slug),
         logo = CASE WHEN $4::boolean THEN $5 ELSE logo END, metadata = COALESCE($6, metadata),
         require_two_factor = COALESCE($7, require_two_factor)
       WHERE id = $1 RETURNING *`,
      [
        id,
        data.name ?? null,
        data.slug ?? null,
        data.logo !== undefined,
        data.logo ?? null,
        data.metadata ?? null,
        data.requireTwoFactor ?? null,
      ],
    );
    return rows[0] ? toOrganization(rows[0]) : null;
  }

  /** spec §4: members and invitations first, then the organization (teams go with it by cascade). */
  async deleteOrganization(id: string, sql: Sql): Promise<void> {
    await sql.query('DELETE FROM invitations WHERE organization_id = $1', [id]);
    await sql.query('DELETE FROM members WHERE organization_id = $1', [id]);
    await sql.query('DELETE FROM organizations WHERE id = $1', [id]);
  }

  async listForUser(userId: string): Promise<OrganizationView[]> {
    const rows = await this.sql.query(
      `SELECT o.* FROM organizations o JOIN members m ON m.organization_id = o.id
       WHERE m.user_id = $1 ORDER BY o.created_at, o.id`,
      [userId],
    );
    return rows.map(toOrganization);
  }

  async countForUser(userId: string): Promise<number> {
    const rows = await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM members WHERE user_id = $1', [
      userId,
    ]);
    return rows[0].n;
  }

  /** A membership; `teamId` is the team it is made with (the caller also gives the user that team place). */
  async insertMember(
    organizationId: string,
    userId: string,
    role: string,
    now: Date,
    sql: Sql = this.sql,
    teamId: string | null = null,
  ) {
    const rows = await sql.query(
      `INSERT INTO members (id, organization_id, user_id, role, created_at, team_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [newId(), organizationId, userId, role, now, teamId],
    );
    return toMember(rows[0]);
  }

  /** The caller's membership (with user), or null. */
  async findMember(organizationId: string, userId: string, sql: Sql = this.sql): Promise<MemberView | null> {
    if (!isId(organizationId) || !isId(userId)) return null;
    const rows = await sql.query(`${MEMBER_WITH_USER} WHERE m.organization_id = $1 AND m.user_id = $2`, [
      organizationId,
      userId,
    ]);
    return rows[0] ? toMember(rows[0]) : null;
  }

  /**
   * The user's membership (with user) and whether the organization requires a second factor: the caller's standing
   * in one statement, as findMember's (docs/two-factor.md "Policies").
   */
  async findMemberWithPolicy(
    organizationId: string,
    userId: string,
    sql: Sql = this.sql,
  ): Promise<{ member: MemberView; requireTwoFactor: boolean } | null> {
    if (!isId(organizationId) || !isId(userId)) return null;
    const rows = await sql.query(
      `SELECT m.*, u.name AS u_name, u.email AS u_email, u.image AS u_image, o.require_two_factor AS o_require_2fa
       FROM members m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id
       WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return rows[0] ? { member: toMember(rows[0]), requireTwoFactor: rows[0].o_require_2fa === true } : null;
  }

  /** A member of `organizationId` by member id, or by email (case-insensitive); foreign ids find nothing. */
  async findMemberIn(organizationId: string, idOrEmail: string, sql: Sql = this.sql): Promise<MemberView | null> {
    const byEmail = idOrEmail.includes('@');
    if (!isId(organizationId) || (!byEmail && !isId(idOrEmail))) return null;
    const where = byEmail ? 'u.email = lower($2)' : 'm.id = $2::uuid';
    const rows = await sql.query(`${MEMBER_WITH_USER} WHERE m.organization_id = $1 AND ${where}`, [
      organizationId,
      idOrEmail,
    ]);
    return rows[0] ? toMember(rows[0]) : null;
  }

  async isMemberByEmail(organizationId: string, email: string): Promise<boolean> {
    const rows = await this.sql.query(
      'SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email = $2',
      [organizationId, email],
    );
    return rows.length > 0;
  }

  async countMembers(organizationId: string, sql: Sql = this.sql): Promise<number> {
    const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM members WHERE organization_id = $1', [
      organizationId,
    ]);
    return rows[0].n;
  }

  /** Members holding `role` among their comma-separated roles. */
  async countWithRole(organizationId: string, role: string, sql: Sql = this.sql): Promise<number> {
    const rows = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM members
       WHERE organization_id = $1 AND $2 = ANY (SELECT btrim(r) FROM unnest(string_to_array(role, ',')) r)`,
      [organizationId, role],
    );
    return rows[0].n;
  }

  /**
   * One page in (created_at, id) order by default. The page's ids are cut in the order of
   * members_organization_created_idx (organization_id first) by an index-only scan, so an offset walks index
   * entries instead of sorting or fetching every member; the page's rows and users are then read by primary key.
   */
  async listMembers(organizationId: string, page: MemberPage): Promise<{ members: MemberView[]; total: number }> {
    const params: unknown[] = [organizationId];
    let where = 'm.organization_id = $1';
    if (page.filter) {
      const { field, operator, value } = page.filter;
      params.push(operator === 'contains' ? `%${escapeLike(value)}%` : value);
      const op = operator === 'eq' ? '=' : operator === 'ne' ? '<>' : 'LIKE';
      where += ` AND ${FILTER_COLUMNS[field]} ${op} $${params.length}`;
    }
    const dir = page.direction === 'desc' ? 'DESC' : 'ASC';
    const order = `m.organization_id ${dir}, ${SORT_COLUMNS[page.sortBy]} ${dir}, m.id ${dir}`;
    const ids = `SELECT m.id FROM members m WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
    const [rows, count] = await Promise.all([
      this.sql.query(`${MEMBER_WITH_USER} WHERE m.id = ANY(ARRAY(${ids})) ORDER BY ${order}`, params),
      this.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM members m WHERE ${where}`, params),
    ]);
    return { members: rows.map(toMember), total: count[0].n };
  }

  async updateRole(memberId: string, role: string, sql: Sql = this.sql): Promise<MemberView | null> {
    const rows = await sql.query('UPDATE members SET role = $2 WHERE id = $1 RETURNING *', [memberId, role]);
    return rows[0] ? toMember(rows[0]) : null;
  }

  /**
   * Removes a membership and the user's places in this organization's teams; the invitation it was accepted from
   * no longer names them (`accepted_by`: a member who left is not a missing membership).
   */
  async deleteMember(member: MemberView, sql: Sql): Promise<void> {
    await sql.query(
      'DELETE FROM team_members WHERE user_id = $1 AND team_id IN (SELECT id FROM teams WHERE organization_id = $2)',
      [member.userId, member.organizationId],
    );
    await sql.query('DELETE FROM members WHERE id = $1', [member.id]);
    await sql.query('UPDATE invitations SET accepted_by = NULL WHERE organization_id = $1 AND accepted_by = $2', [
      member.organizationId,
      member.userId,
    ]);
  }

  /** The invitee's name and stored language, if they have an account. */
  async recipient(email: string, sql: Sql = this.sql): Promise<{ name: string; language: string | null }> {
    const rows = await sql.query<{ name: string; language: string | null }>(
      'SELECT name, language FROM users WHERE email = $1',
      [email],
    );
    return rows[0] ?? { name: '', language: null };
  }

  /**
   * The user as stored, their row locked until the transaction ends (`share`: against a change of it, such as the
   * removal of their second factor; `update`: for such a change). Null when there is no such user.
   */
  async lockUser(userId: string, tx: Sql, mode: 'share' | 'update'): Promise<UserView | null> {
    const lock = mode === 'share' ? 'FOR SHARE' : 'FOR NO KEY UPDATE';
    const rows = await tx.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1 ${lock}`, [userId]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /**
   * The members with a session that has this organization active (each once): walked by membership, then each
   * member's sessions by their user index, so the cost follows the organization's size, not the sessions table's.
   */
  async membersWithActive(organizationId: string, tx: Sql): Promise<UserView[]> {
    const rows = await tx.query(
      `SELECT ${USER_COLUMNS} FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1
         AND EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = m.user_id AND s.active_organization_id = $1)`,
      [organizationId],
    );
    return rows.map(toUserView);
  }

  /**
   * The organizations active in the user's sessions, locked against a change (FOR SHARE) and read as they are once
   * the lock is held: a policy being turned on meanwhile is seen.
   */
  async lockActiveOrganizationsOf(userId: string, tx: Sql): Promise<Array<{ id: string; requireTwoFactor: boolean }>> {
    const rows = await tx.query<{ id: string; require_two_factor: boolean }>(
      `SELECT o.id, o.require_two_factor FROM organizations o
       WHERE o.id IN (SELECT s.active_organization_id FROM sessions s WHERE s.user_id = $1)
       ORDER BY o.id FOR SHARE`,
      [userId],
    );
    return rows.map((r) => ({ id: r.id, requireTwoFactor: r.require_two_factor }));
  }

  /** A user's public fields (operators name the owner of an organization they create), or null. */
  async findUserBrief(userId: string): Promise<MemberUser | null> {
    if (!isId(userId)) return null;
    const rows = await this.sql.query<MemberUser>('SELECT id, name, email, image FROM users WHERE id = $1', [userId]);
    return rows[0] ?? null;
  }

  /** A user's memberships with their organizations, oldest first (operators: admin list-user-organizations). */
  async membershipsOf(userId: string): Promise<UserMembership[]> {
    if (!isId(userId)) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT o.*, m.id AS member_id, m.role AS member_role, m.created_at AS member_created_at
       FROM members m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = $1 ORDER BY m.created_at, m.id`,
      [userId],
    );
    return rows.map((r) => ({
      organization: toOrganization(r),
      memberId: r.member_id as string,
      role: r.member_role as string,
      joinedAt: isoOf(r.member_created_at as Date),
    }));
  }

  /**
   * Operators' list: every organization with its member count, optionally those whose name or slug contains
   * `searchValue` (case-insensitive; LIKE's wildcards in it are taken literally), in the asked order.
   */
  async listAllWithMemberCounts(
    limit: number,
    offset: number,
    query: OrganizationListQuery = {},
  ): Promise<{ organizations: OrganizationSummary[]; total: number }> {
    const search = query.searchValue?.trim();
    const where = search ? `WHERE o.name ILIKE $3 OR o.slug ILIKE $3` : '';
    const params: unknown[] = search
      ? [limit, offset, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]
      : [limit, offset];
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
    const order = { name: 'lower(o.name)', memberCount: 'member_count', createdAt: 'o.created_at' }[
      query.sortBy ?? 'createdAt'
    ];
    const [rows, counted] = await Promise.all([
      this.sql.query<Record<string, unknown>>(
        `SELECT o.id, o.name, o.slug, o.logo, o.metadata, o.require_two_factor, o.created_at,
                (SELECT count(*) FROM members m WHERE m.organization_id = o.id) AS member_count
         FROM organizations o ${where} ORDER BY ${order} ${direction}, o.id LIMIT $1 OFFSET $2`,
        params,
      ),
      this.sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM organizations o ${where.replaceAll('$3', '$1')}`,
        search ? [params[2]] : [],
      ),
    ]);
    const organizations = rows.map((r) => ({ ...toOrganization(r), memberCount: Number(r.member_count) }));
    return { organizations, total: Number(counted[0].total) };
  }
}

const lockClause = (lock: boolean | 'share'): string => (lock === 'share' ? ' FOR SHARE' : lock ? ' FOR UPDATE' : '');

import type { Permissions } from '../../access';
import { fail } from '../../errors';
import type { QueryOf } from '../../shared/schemas';
import type { SessionWithUser } from '../../shared/views';
import type { GetActiveMemberRole, ListMembersQuery } from './member.schemas';
import type { OrganizationAccess, OrganizationDeps } from './membership';
import type { GetFullOrganization } from './organization.schemas';
import type { MemberPage, OrganizationListQuery } from './repository';
import type { FullOrganization, MemberView, OperatorOrganization } from './views';

/** What the reads use. */
export type ReadDeps = Pick<OrganizationDeps, 'orgs' | 'invitations' | 'teams' | 'config'>;

/** Reads that need membership: get-full-organization, list-members, get-active-member, has-permission. */
export class OrganizationReadService {
  constructor(
    private readonly d: ReadDeps,
    private readonly access: OrganizationAccess,
  ) {}

  /** Every organization with member counts, for operators; the caller (admin feature) checks its own permission. */
  listAllForOperators(limit: number, offset: number, query: OrganizationListQuery = {}) {
    return this.d.orgs.listAllWithMemberCounts(limit, offset, query);
  }

  /** A user's organizations with their role in each (operators; the caller checks its own permission). */
  membershipsForOperators(userId: string) {
    return this.d.orgs.membershipsOf(userId);
  }

  /** get-full-organization for an operator (access.ts), plus who is in which team (the console's page). */
  async fullForOperators(operator: SessionWithUser, organizationId: string): Promise<OperatorOrganization> {
    const full = (await this.getFull(operator, { organizationId })) ?? fail('ORGANIZATION_NOT_FOUND');
    const teamMembers = this.d.config.organization.teams.enabled ? await this.d.teams.membersIn(organizationId) : [];
    return { ...full, teamMembers };
  }

  /** better-auth: no organization named and none active → null. */
  async getFull(auth: SessionWithUser, query: QueryOf<typeof GetFullOrganization>): Promise<FullOrganization | null> {
    const wanted = query.organizationSlug || query.organizationId || auth.session.activeOrganizationId;
    if (!wanted) return null;
    const organization = query.organizationSlug
      ? await this.d.orgs.findBySlug(query.organizationSlug)
      : await this.d.orgs.findById(wanted);
    if (!organization) return fail('ORGANIZATION_NOT_FOUND');
    await this.access.caller(organization.id, auth, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    const limit = query.membersLimit ?? this.d.config.organization.memberListLimit;
    const page: MemberPage = { limit, offset: 0, sortBy: 'createdAt', direction: 'asc' };
    const [{ members }, invitations, teams] = await Promise.all([
      this.d.orgs.listMembers(organization.id, page),
      this.d.invitations.listForOrganization(organization.id),
      this.d.config.organization.teams.enabled ? this.d.teams.list(organization.id) : undefined,
    ]);
    return { ...organization, members, invitations, ...(teams ? { teams } : {}) };
  }

  async listMembers(auth: SessionWithUser, query: ListMembersQuery) {
    let organizationId = query.organizationId || auth.session.activeOrganizationId;
    if (query.organizationSlug) {
      const organization = await this.d.orgs.findBySlug(query.organizationSlug);
      organizationId = organization?.id ?? fail('ORGANIZATION_NOT_FOUND');
    }
    if (!organizationId) return fail('NO_ACTIVE_ORGANIZATION');
    await this.access.self(organizationId, auth.user, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    const page: MemberPage = {
      limit: query.limit ?? this.d.config.organization.memberListLimit,
      offset: query.offset ?? 0,
      sortBy: query.sortBy ?? 'createdAt',
      direction: query.sortDirection ?? 'asc',
    };
    if (query.filterField && query.filterValue !== undefined)
      page.filter = { field: query.filterField, operator: query.filterOperator ?? 'eq', value: query.filterValue };
    return this.d.orgs.listMembers(organizationId, page);
  }

  async activeMember(auth: SessionWithUser): Promise<MemberView> {
    const organizationId = this.access.organizationId(null, auth, 'NO_ACTIVE_ORGANIZATION');
    return this.access.self(organizationId, auth.user, 'MEMBER_NOT_FOUND');
  }

  /** better-auth get-active-member-role: the caller's role, or a fellow member's (userId) in the same organization. */
  async activeMemberRole(auth: SessionWithUser, query: QueryOf<typeof GetActiveMemberRole>) {
    let organizationId = query.organizationId || auth.session.activeOrganizationId;
    if (query.organizationSlug) {
      const organization = await this.d.orgs.findBySlug(query.organizationSlug);
      organizationId = organization?.id ?? fail('ORGANIZATION_NOT_FOUND');
    }
    if (!organizationId) return fail('NO_ACTIVE_ORGANIZATION');
    const caller = await this.access.self(organizationId, auth.user, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    if (!query.userId || query.userId === auth.user.id) return { role: caller.role };
    const other = await this.access.member(organizationId, query.userId, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    return { role: other.role };
  }

  async hasPermission(auth: SessionWithUser, organizationId: string | undefined, permissions: Permissions) {
    const id = this.access.organizationId(organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const member = await this.access.self(id, auth.user, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    return { error: null, success: this.access.can(member, permissions) };
  }
}

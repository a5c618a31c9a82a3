import { fail } from '../../errors';
import type { BodyOf } from '../../shared/schemas';
import { isForeignKeyViolation, isUniqueViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import { teamMemberLimit } from './invitation.service';
import type { AddMemberInput, RemoveMember, UpdateMemberRole } from './member.schemas';
import { isOperator, type OrganizationAccess, type OrganizationDeps, recordIn } from './membership';
import { type WithSession, withoutActive } from './organization.service';
import type { MemberView } from './views';

/** What member changes use. */
export type MemberDeps = Pick<OrganizationDeps, 'sql' | 'orgs' | 'teams' | 'sessions' | 'config' | 'clock' | 'audit'>;

/** spec §7 remove-member, update-member-role, leave; §5 "the only owner can neither leave nor be removed". */
export class MemberService {
  constructor(
    private readonly d: MemberDeps,
    private readonly access: OrganizationAccess,
  ) {}

  /**
   * better-auth's server-side addMember: an existing user becomes a member at once, without an invitation. Only
   * operators reach it (admin/organization/add-member, authorised there by `organization: manage`, as better-auth
   * leaves addMember to trusted server code); anyone else is refused. With teams on, `teamId` (a team of this
   * organization) gives the new member that team place too; with teams off it is ignored, as invitations do. One
   * transaction with the organization row locked, so the membership limit holds against racing adds and accepts;
   * the user's sessions are untouched (no active organization changes).
   */
  async add(auth: SessionWithUser, input: AddMemberInput): Promise<MemberView> {
    const { organizationId, userId } = input;
    if (!isOperator(auth)) fail('NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS');
    await this.access.caller(organizationId, auth, 'ORGANIZATION_NOT_FOUND');
    const role = this.access.normalizeRoles(input.role);
    if (!(await this.d.orgs.findUserBrief(userId))) fail('USER_NOT_FOUND');
    const settings = this.d.config.organization;
    const withTeam = settings.teams.enabled && input.teamId ? input.teamId : null;
    const now = new Date(this.d.clock.now());
    return this.d.sql
      .transaction(async (tx) => {
        await this.lockOrganization(organizationId, tx);
        if (await this.d.orgs.findMember(organizationId, userId, tx)) fail('USER_IS_ALREADY_A_MEMBER');
        if ((await this.d.orgs.countMembers(organizationId, tx)) >= settings.membershipLimit)
          fail('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED');
        const team = withTeam ? await this.d.teams.findIn(organizationId, withTeam, tx, true) : null;
        if (withTeam && !team) fail('TEAM_NOT_FOUND');
        if (team) {
          const limit = teamMemberLimit(settings.teams, team.id);
          if (limit > 0 && (await this.d.teams.countMembers(team.id, tx)) >= limit) fail('TEAM_MEMBER_LIMIT_REACHED');
        }
        const added = await this.d.orgs.insertMember(organizationId, userId, role, now, tx, team?.id ?? null);
        if (team) await this.d.teams.addMember(team.id, userId, now, tx);
        const details = { userId, role, teamId: team?.id ?? null };
        const target = { type: 'member', id: added.id } as const;
        await recordIn(this.d, tx, auth, 'organization.member.added', organizationId, target, details);
        return (await this.d.orgs.findMember(organizationId, userId, tx)) ?? added;
      })
      .catch((error) => {
        // A racing add of the same user, or the user deleted meanwhile.
        if (isUniqueViolation(error)) fail('USER_IS_ALREADY_A_MEMBER');
        if (isForeignKeyViolation(error)) fail('USER_NOT_FOUND');
        return Promise.reject(error);
      });
  }

  async remove(auth: SessionWithUser, body: BodyOf<typeof RemoveMember>): Promise<WithSession<{ member: MemberView }>> {
    const organizationId = this.access.organizationId(body.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const caller = await this.access.caller(organizationId, auth, 'MEMBER_NOT_FOUND');
    // Foreign member ids and emails of non-members find nothing in this organization.
    const target = (await this.d.orgs.findMemberIn(organizationId, body.memberIdOrEmail)) ?? fail('MEMBER_NOT_FOUND');
    this.access.require(caller, { member: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_MEMBER');
    if (this.access.isCreator(target.role) && !this.access.isCreator(caller.role)) fail('NOT_ALLOWED_TO_DELETE_MEMBER');
    await this.removeMembership(target, auth, { userId: target.userId, left: false });
    const { user: _user, ...member } = target;
    const session = target.userId === auth.user.id ? withoutActive(auth, organizationId) : undefined;
    return { result: { member }, session };
  }

  /** Leaving is not held to the organization's second-factor policy: a member without one can always go. */
  async leave(auth: SessionWithUser, organizationId: string): Promise<WithSession<MemberView>> {
    const member = await this.access.member(organizationId, auth.user.id, 'MEMBER_NOT_FOUND');
    await this.removeMembership(member, auth, { userId: member.userId, left: true });
    const { user: _user, ...result } = member;
    return { result, session: withoutActive(auth, organizationId) };
  }

  async updateRole(auth: SessionWithUser, body: BodyOf<typeof UpdateMemberRole>): Promise<MemberView> {
    const role = this.access.normalizeRoles(body.role);
    const organizationId = this.access.organizationId(body.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const caller = await this.access.caller(organizationId, auth, 'MEMBER_NOT_FOUND');
    const target = (await this.d.orgs.findMemberIn(organizationId, body.memberId)) ?? fail('MEMBER_NOT_FOUND');
    this.access.require(caller, { member: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_MEMBER');
    // No escalation: an owner's role is changed only by an owner, and nobody grants more than they hold.
    if (this.access.isCreator(target.role) && !this.access.isCreator(caller.role)) fail('NOT_ALLOWED_TO_UPDATE_MEMBER');
    if (!this.access.mayGrant(caller, role)) fail('NOT_ALLOWED_TO_UPDATE_MEMBER');
    return this.d.sql.transaction(async (tx) => {
      await this.lockOrganization(organizationId, tx);
      if (this.access.isCreator(target.role) && !this.access.isCreator(role)) await this.assertAnotherOwner(target, tx);
      const updated = (await this.d.orgs.updateRole(target.id, role, tx)) ?? fail('MEMBER_NOT_FOUND');
      const details = { userId: target.userId, role, previousRole: target.role };
      const member = { type: 'member', id: target.id } as const;
      await recordIn(this.d, tx, auth, 'organization.member.role_updated', organizationId, member, details);
      return updated;
    });
  }

  /**
   * One transaction: the organization row is locked so two owners leaving at once cannot both pass the
   * "another owner remains" check; the user's sessions lose this active organization.
   */
  private async removeMembership(
    target: MemberView,
    auth: SessionWithUser,
    details: { userId: string; left: boolean },
  ): Promise<void> {
    const evict = await this.d.sql.transaction(async (tx) => {
      await this.lockOrganization(target.organizationId, tx);
      if (this.access.isCreator(target.role)) await this.assertAnotherOwner(target, tx, 'CANNOT_LEAVE_AS_ONLY_OWNER');
      await this.d.orgs.deleteMember(target, tx);
      const member = { type: 'member', id: target.id } as const;
      await recordIn(this.d, tx, auth, 'organization.member.removed', target.organizationId, member, details);
      return this.d.sessions.clearActiveOrganizationIn(tx, target.organizationId, target.userId);
    });
    await evict();
  }

  private async lockOrganization(organizationId: string, tx: Sql): Promise<void> {
    if (!(await this.d.orgs.findById(organizationId, tx, true))) fail('ORGANIZATION_NOT_FOUND');
  }

  private async assertAnotherOwner(
    target: MemberView,
    tx: Sql,
    code: 'CANNOT_LEAVE_AS_ONLY_OWNER' | 'CANNOT_LEAVE_WITHOUT_AN_OWNER' = 'CANNOT_LEAVE_WITHOUT_AN_OWNER',
  ): Promise<void> {
    const owners = await this.d.orgs.countWithRole(target.organizationId, this.access.creatorRole, tx);
    if (owners <= 1) fail(code);
  }
}

import { fail } from '../../errors';
import { hasSecondFactor } from '../../shared/second-factor';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import { type InvitationService, teamMemberLimit } from './invitation.service';
import { type OrganizationDeps, recordIn } from './membership';
import type { WithSession } from './organization.service';
import type { InvitationView, MemberView, OrganizationView } from './views';

/** What accepting an invitation uses. */
export type AcceptDeps = Pick<
  OrganizationDeps,
  'sql' | 'orgs' | 'invitations' | 'teams' | 'sessions' | 'config' | 'clock' | 'audit'
>;

/**
 * spec §4 accept: pending and unexpired → accepted, the membership with the invited role and team, then the
 * organization becomes the session's active one. One transaction, all four or none; the organization row is locked
 * before anything is written, so racing accepts of one invitation, or of several against the membership limit, are
 * decided one at a time (the user's row is held before it, shared, so a concurrent removal of their second factor
 * is decided before or after the policy check: second-factor-policy.ts). The session's Redis entry is fenced in it
 * and dropped after the commit.
 */
export class AcceptService {
  constructor(
    private readonly d: AcceptDeps,
    private readonly invitations: InvitationService,
  ) {}

  async accept(
    auth: SessionWithUser,
    invitationId: string,
  ): Promise<WithSession<{ invitation: InvitationView; member: MemberView }>> {
    const found = await this.invitations.live(auth, invitationId);
    await this.invitations.inviterOf(found);
    const { result, activated } = await this.d.sql
      .transaction(async (tx) => {
        // The user's row first (second-factor-policy.ts): a second factor removed meanwhile is seen here.
        const user = (await this.d.orgs.lockUser(auth.user.id, tx, 'share')) ?? auth.user;
        const organization = await this.lockOrganization(found.organizationId, tx);
        const now = new Date(this.d.clock.now());
        const invitation =
          (await this.d.invitations.settle(found.id, 'accepted', now, tx, auth.user.id)) ??
          fail('INVITATION_NOT_FOUND');
        const count = await this.d.orgs.countMembers(invitation.organizationId, tx);
        if (count >= this.d.config.organization.membershipLimit) fail('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED');
        const teamId =
          invitation.teamId && this.d.config.organization.teams.enabled
            ? await this.joinTeam(invitation, auth, now, tx)
            : null;
        const member = await this.d.orgs.insertMember(
          invitation.organizationId,
          auth.user.id,
          invitation.role,
          now,
          tx,
          teamId,
        );
        // docs/two-factor.md "Policies": a member without a second factor joins, but the organization is not made active
        const activated =
          organization.requireTwoFactor && !hasSecondFactor(user)
            ? async () => undefined
            : await this.d.sessions.setActiveOrganizationIn(tx, auth.session.token, member.organizationId);
        await this.invitations.settled(tx, auth, invitation, 'organization.invitation.accepted');
        const details = { userId: auth.user.id, role: member.role, invitationId: invitation.id, teamId };
        const target = { type: 'member', id: member.id } as const;
        await recordIn(this.d, tx, auth, 'organization.member.added', member.organizationId, target, details);
        return { result: { invitation, member }, activated };
      })
      .catch((error) => (isUniqueViolation(error) ? fail('USER_IS_ALREADY_A_MEMBER') : Promise.reject(error)));
    return { result, session: await activated() };
  }

  private async lockOrganization(organizationId: string, tx: Sql): Promise<OrganizationView> {
    return (await this.d.orgs.findById(organizationId, tx, true)) ?? fail('INVITATION_NOT_FOUND');
  }

  /** The invited team place; returns the team's id, which the membership records (spec §3 Member teamId). */
  private async joinTeam(invitation: InvitationView, auth: SessionWithUser, now: Date, tx: Sql): Promise<string> {
    const team = await this.d.teams.findIn(invitation.organizationId, invitation.teamId!, tx, true);
    if (!team) return fail('TEAM_NOT_FOUND');
    const limit = teamMemberLimit(this.d.config.organization.teams, team.id);
    if (limit > 0 && (await this.d.teams.countMembers(team.id, tx)) >= limit) fail('TEAM_MEMBER_LIMIT_REACHED');
    await this.d.teams.addMember(team.id, auth.user.id, now, tx);
    return team.id;
  }
}

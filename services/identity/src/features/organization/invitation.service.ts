import { fail } from '../../errors';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import type { InvitationMailer } from './invitation.mailer';
import type { InviteInput } from './invitation.schemas';
import { type OrganizationAccess, type OrganizationDeps, recordIn } from './membership';
import type { InvitationView, MemberView } from './views';

/** What invitations use. */
export type InvitationDeps = Pick<
  OrganizationDeps,
  'sql' | 'orgs' | 'invitations' | 'teams' | 'config' | 'clock' | 'audit'
>;

/** spec §7 invite-member, reject, cancel, get and list; accept lives in accept.service.ts. */
export class InvitationService {
  constructor(
    private readonly d: InvitationDeps,
    private readonly access: OrganizationAccess,
    private readonly mailer: InvitationMailer,
  ) {}

  async invite(auth: SessionWithUser, input: InviteInput, acceptLanguage?: string): Promise<InvitationView> {
    const settings = this.d.config.organization;
    const organizationId = this.access.organizationId(input.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const inviter = await this.access.caller(organizationId, auth, 'MEMBER_NOT_FOUND');
    this.access.require(inviter, { invitation: ['create'] }, 'NOT_ALLOWED_TO_INVITE_USERS');
    const role = this.access.normalizeRoles(input.role);
    if (!this.access.mayGrant(inviter, role)) fail('NOT_ALLOWED_TO_INVITE_WITH_ROLE');
    const email = input.email.toLowerCase();
    if (await this.d.orgs.isMemberByEmail(organizationId, email)) fail('USER_IS_ALREADY_A_MEMBER');
    const now = new Date(this.d.clock.now());
    const expiresAt = new Date(now.getTime() + settings.invitationExpiresInSec * 1000);
    const pending = await this.d.invitations.findPending(organizationId, email);
    const live = pending && Date.parse(pending.expiresAt) > now.getTime();
    if (pending && live && input.resend) {
      // better-auth: resend extends the expiry and mails the same invitation again (both or neither).
      return this.d.sql.transaction(async (tx) => {
        const extended = (await this.d.invitations.extend(pending.id, expiresAt, tx)) ?? fail('INVITATION_NOT_FOUND');
        await this.mailer.send(extended, inviter, acceptLanguage, tx);
        await this.created(tx, auth, extended, true);
        return extended;
      });
    }
    if (pending && live && !settings.cancelPendingInvitationsOnReInvite) fail('USER_IS_ALREADY_INVITED');
    const teamId = settings.teams.enabled && input.teamId ? await this.checkTeam(organizationId, input.teamId) : null;
    const invitation = await this.d.sql
      .transaction(async (tx) => {
        // An expired pending row (or, when configured, a live one) gives way to the new invitation.
        if (pending) await this.d.invitations.cancel(pending.id, tx);
        const limit = settings.invitationLimit;
        if (limit > 0 && (await this.d.invitations.countLivePending(organizationId, now, tx)) >= limit)
          fail('INVITATION_LIMIT_REACHED');
        const row = { organizationId, email, role, teamId, inviterId: auth.user.id, expiresAt };
        const inserted = await this.d.invitations.insert(row, now, tx);
        await this.mailer.send(inserted, inviter, acceptLanguage, tx); // sent once the row is committed
        if (pending) await this.settled(tx, auth, pending, 'organization.invitation.canceled', { replaced: true });
        await this.created(tx, auth, inserted, false);
        return inserted;
      })
      .catch((error) => (isUniqueViolation(error) ? fail('USER_IS_ALREADY_INVITED') : Promise.reject(error)));
    return invitation;
  }

  async reject(auth: SessionWithUser, invitationId: string) {
    await this.live(auth, invitationId);
    const now = new Date(this.d.clock.now());
    const invitation = await this.d.sql.transaction(async (tx) => {
      const settled = await this.d.invitations.settle(invitationId, 'rejected', now, tx);
      if (settled) await this.settled(tx, auth, settled, 'organization.invitation.rejected');
      return settled;
    });
    return { invitation: invitation ?? fail('INVITATION_NOT_FOUND'), member: null };
  }

  /** spec §4: cancel does not check that the invitation is pending. */
  async cancel(auth: SessionWithUser, invitationId: string): Promise<InvitationView> {
    const invitation = (await this.d.invitations.findById(invitationId)) ?? fail('INVITATION_NOT_FOUND');
    // Someone outside the invitation's organization learns nothing about it.
    const member = await this.access.caller(invitation.organizationId, auth, 'INVITATION_NOT_FOUND');
    this.access.require(member, { invitation: ['cancel'] }, 'NOT_ALLOWED_TO_CANCEL_INVITATION');
    const canceled = await this.d.sql.transaction(async (tx) => {
      const row = await this.d.invitations.cancel(invitation.id, tx);
      if (row) await this.settled(tx, auth, row, 'organization.invitation.canceled');
      return row;
    });
    return canceled ?? fail('INVITATION_NOT_FOUND');
  }

  async get(auth: SessionWithUser, invitationId: string) {
    const invitation = await this.live(auth, invitationId);
    const organization = (await this.d.orgs.findById(invitation.organizationId)) ?? fail('ORGANIZATION_NOT_FOUND');
    const inviter = await this.inviterOf(invitation);
    return {
      ...invitation,
      organizationName: organization.name,
      organizationSlug: organization.slug,
      inviterEmail: inviter.user!.email,
    };
  }

  async list(auth: SessionWithUser, organizationId?: string): Promise<InvitationView[]> {
    const id = this.access.organizationId(organizationId, auth, 'ORGANIZATION_ID_REQUIRED');
    await this.access.self(id, auth.user, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    return this.d.invitations.listForOrganization(id);
  }

  /** better-auth list-user-invitations: the live pending invitations addressed to the caller (verified email). */
  async listForUser(auth: SessionWithUser) {
    if (this.d.config.organization.requireEmailVerificationOnInvitation && !auth.user.emailVerified)
      fail('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION');
    return this.d.invitations.listPendingForEmail(auth.user.email.toLowerCase(), new Date(this.d.clock.now()));
  }

  /**
   * spec §4: accept, reject and get see only a pending, unexpired invitation; only its recipient (email compared
   * case-insensitively) may act on it, by default only with a verified email.
   */
  async live(auth: SessionWithUser, invitationId: string): Promise<InvitationView> {
    const invitation = await this.d.invitations.findById(invitationId);
    const now = this.d.clock.now();
    if (invitation?.status !== 'pending' || Date.parse(invitation.expiresAt) <= now)
      return fail('INVITATION_NOT_FOUND');
    if (invitation.email !== auth.user.email.toLowerCase()) fail('NOT_THE_RECIPIENT_OF_THE_INVITATION');
    if (this.d.config.organization.requireEmailVerificationOnInvitation && !auth.user.emailVerified)
      fail('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION');
    return invitation;
  }

  async inviterOf(invitation: InvitationView): Promise<MemberView> {
    return this.access.inviter(invitation.organizationId, invitation.inviterId);
  }

  /** The invitation's event: who was invited (their address, as the invitation holds it) with which role. */
  private created(tx: Sql, auth: SessionWithUser, invitation: InvitationView, resent: boolean): Promise<void> {
    const details = { email: invitation.email, role: invitation.role, teamId: invitation.teamId, resent };
    const target = { type: 'invitation', id: invitation.id } as const;
    return recordIn(this.d, tx, auth, 'organization.invitation.created', invitation.organizationId, target, details);
  }

  /** An invitation answered or withdrawn (rejected, canceled). */
  settled(
    tx: Sql,
    auth: SessionWithUser,
    invitation: InvitationView,
    type: 'organization.invitation.rejected' | 'organization.invitation.canceled' | 'organization.invitation.accepted',
    details: Record<string, boolean | string> = {},
  ): Promise<void> {
    const target = { type: 'invitation', id: invitation.id } as const;
    return recordIn(this.d, tx, auth, type, invitation.organizationId, target, { email: invitation.email, ...details });
  }

  private async checkTeam(organizationId: string, teamId: string): Promise<string> {
    const team = (await this.d.teams.findIn(organizationId, teamId)) ?? fail('TEAM_NOT_FOUND');
    const limit = teamMemberLimit(this.d.config.organization.teams, team.id);
    if (limit > 0 && (await this.d.teams.countMembers(team.id)) >= limit) fail('TEAM_MEMBER_LIMIT_REACHED');
    return team.id;
  }
}

/** A team's member limit: its override, else the general maximum; 0 = no limit. */
export function teamMemberLimit(
  teams: { maximumMembersPerTeam: number; memberLimitOverrides: Record<string, number> },
  teamId: string,
): number {
  return teams.memberLimitOverrides[teamId] ?? teams.maximumMembersPerTeam;
}

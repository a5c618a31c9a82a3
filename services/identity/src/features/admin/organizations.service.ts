import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import type { BodyOf } from '../../shared/schemas';
import type { SessionWithUser } from '../../shared/views';
import { asOperator, type Caller, type OrganizationFeature } from '../organization';
import type {
  AddMember,
  AddTeamMember,
  CreateOrganization,
  CreateTeam,
  InviteMember,
  RemoveMember,
  RemoveTeam,
  RemoveTeamMember,
  UpdateMemberRole,
  UpdateOrganization,
  UpdateTeam,
} from './organizations.schemas';
import type { AdminParts } from './parts';

/** What an operator may do to an organization: read it (`list`) or change it (`manage`). */
type Need = 'list' | 'manage';

/** What operators acting on organizations use. */
export type AdminOrganizationsDeps = Pick<AdminParts, 'access' | 'accounts' | 'organizations'>;

/**
 * Operators on organizations they need not belong to: each call checks the admin permission, then runs
 * the organization feature's own service as an operator (organization/access.ts), so its rules (the last owner,
 * no foreign ids, limits, the invitation mail) hold exactly as for an owner.
 */
export class AdminOrganizationsService {
  constructor(private readonly d: AdminOrganizationsDeps) {}

  private as(auth: SessionWithUser, need: Need): { org: OrganizationFeature; operator: Caller } {
    const code = need === 'list' ? 'NOT_ALLOWED_TO_LIST_ORGANIZATIONS' : 'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS';
    this.d.access.demand(auth, { organization: [need] }, code);
    return { org: this.d.organizations ?? fail('NOT_FOUND'), operator: asOperator(auth) };
  }

  get(auth: SessionWithUser, organizationId: string) {
    const { org, operator } = this.as(auth, 'list');
    return org.reads.fullForOperators(operator, organizationId);
  }

  /** The owner is `userId` (default: the operator); no session's active organization changes. */
  async create(auth: SessionWithUser, body: BodyOf<typeof CreateOrganization>) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.organizations.create(operator, body)).result;
  }

  update(auth: SessionWithUser, body: BodyOf<typeof UpdateOrganization>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.organizations.update(operator, body);
  }

  async delete(auth: SessionWithUser, organizationId: string) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.organizations.delete(operator, organizationId)).result;
  }

  invite(auth: SessionWithUser, body: BodyOf<typeof InviteMember>, acceptLanguage?: string) {
    const { org, operator } = this.as(auth, 'manage');
    return org.invitations.invite(operator, body, acceptLanguage);
  }

  cancelInvitation(auth: SessionWithUser, invitationId: string) {
    const { org, operator } = this.as(auth, 'manage');
    return org.invitations.cancel(operator, invitationId);
  }

  /** An existing user joins at once, no invitation (better-auth's addMember). */
  addMember(auth: SessionWithUser, body: BodyOf<typeof AddMember>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.members.add(operator, body);
  }

  updateMemberRole(auth: SessionWithUser, body: BodyOf<typeof UpdateMemberRole>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.members.updateRole(operator, body);
  }

  async removeMember(auth: SessionWithUser, body: BodyOf<typeof RemoveMember>) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.members.remove(operator, body)).result;
  }

  createTeam(auth: SessionWithUser, body: BodyOf<typeof CreateTeam>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.create(operator, body);
  }

  updateTeam(auth: SessionWithUser, body: BodyOf<typeof UpdateTeam>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.update(operator, {
      teamId: body.teamId,
      data: { name: body.name, organizationId: body.organizationId },
    });
  }

  removeTeam(auth: SessionWithUser, body: BodyOf<typeof RemoveTeam>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.remove(operator, body);
  }

  addTeamMember(auth: SessionWithUser, body: BodyOf<typeof AddTeamMember>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.addMember(operator, body);
  }

  removeTeamMember(auth: SessionWithUser, body: BodyOf<typeof RemoveTeamMember>) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.removeMember(operator, body);
  }

  /** A user's organizations with their role in each (the console's user page). */
  async ofUser(auth: SessionWithUser, userId: string) {
    this.d.access.demand(auth, { user: ['get'] }, 'NOT_ALLOWED_TO_GET_USER');
    if (!isId(userId) || !(await this.d.accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    return (await this.d.organizations?.reads.membershipsForOperators(userId)) ?? [];
  }
}

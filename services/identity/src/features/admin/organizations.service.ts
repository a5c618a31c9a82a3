import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import type { SessionWithUser } from '../../shared/views';
import {
  type AddMemberInput,
  asOperator,
  type Caller,
  type InviteInput,
  type OrganizationFeature,
  type UpdateInput,
} from '../organization';
import type { AdminDeps } from './deps';

/** What an operator may do to an organization: read it (`list`) or change it (`manage`). */
type Need = 'list' | 'manage';

/** What operators acting on organizations use. */
export type AdminOrganizationsDeps = Pick<AdminDeps, 'access' | 'accounts' | 'organizations'>;

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
  async create(auth: SessionWithUser, body: { name: string; slug: string; userId?: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.organizations.create(operator, body)).result;
  }

  update(auth: SessionWithUser, body: { organizationId: string; data: UpdateInput['data'] }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.organizations.update(operator, body);
  }

  async delete(auth: SessionWithUser, organizationId: string) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.organizations.delete(operator, organizationId)).result;
  }

  invite(auth: SessionWithUser, body: InviteInput & { organizationId: string }, acceptLanguage?: string) {
    const { org, operator } = this.as(auth, 'manage');
    return org.invitations.invite(operator, body, acceptLanguage);
  }

  cancelInvitation(auth: SessionWithUser, invitationId: string) {
    const { org, operator } = this.as(auth, 'manage');
    return org.invitations.cancel(operator, invitationId);
  }

  /** An existing user joins at once, no invitation (better-auth's addMember). */
  addMember(auth: SessionWithUser, body: AddMemberInput) {
    const { org, operator } = this.as(auth, 'manage');
    return org.members.add(operator, body);
  }

  updateMemberRole(auth: SessionWithUser, body: { organizationId: string; memberId: string; role: string | string[] }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.members.updateRole(operator, body);
  }

  async removeMember(auth: SessionWithUser, body: { organizationId: string; memberIdOrEmail: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return (await org.members.remove(operator, body)).result;
  }

  createTeam(auth: SessionWithUser, body: { organizationId: string; name: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.create(operator, body);
  }

  updateTeam(auth: SessionWithUser, body: { organizationId: string; teamId: string; name: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.update(operator, {
      teamId: body.teamId,
      data: { name: body.name, organizationId: body.organizationId },
    });
  }

  removeTeam(auth: SessionWithUser, body: { organizationId: string; teamId: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.remove(operator, body);
  }

  addTeamMember(auth: SessionWithUser, body: { organizationId: string; teamId: string; userId: string }) {
    const { org, operator } = this.as(auth, 'manage');
    return org.teams.addMember(operator, body);
  }

  removeTeamMember(auth: SessionWithUser, body: { organizationId: string; teamId: string; userId: string }) {
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

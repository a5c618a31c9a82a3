import {
  authorizeRoles,
  buildRoles,
  ORGANIZATION_DEFAULT_ROLES,
  ORGANIZATION_STATEMENTS,
  type Permissions,
  type Role,
  roleNames,
} from '../../access';
import type { Config } from '../../config';
import { type ErrorCode, fail } from '../../errors';
import type { MailQueue } from '../../mail/jobs';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import type { Clock, SessionService } from '../session/session.service';
import type { InvitationRepository } from './invitations.repository';
import type { OrganizationRepository } from './repository';
import type { TeamRepository } from './teams.repository';
import type { MemberView } from './views';

/** What the organization services share; built once in context.ts. */
export interface OrganizationDeps {
  sql: Sql;
  orgs: OrganizationRepository;
  invitations: InvitationRepository;
  teams: TeamRepository;
  sessions: SessionService;
  config: Config;
  clock: Clock;
  mail: MailQueue;
}

/** Membership and permission checks (spec §6), on the pure access model with the configured custom roles. */
export class OrganizationAccess {
  readonly roles: Record<string, Role>;
  readonly creatorRole: string;

  constructor(private readonly d: OrganizationDeps) {
    const org = d.config.organization;
    this.roles = buildRoles(ORGANIZATION_STATEMENTS, ORGANIZATION_DEFAULT_ROLES, org.roles, 'organization.roles');
    this.creatorRole = org.creatorRole;
  }

  /** The organization a call acts in: the one named in the request, else the session's active one. */
  organizationId(given: string | undefined | null, auth: SessionWithUser, missing: ErrorCode): string {
    const id = given || auth.session.activeOrganizationId;
    return id || fail(missing);
  }

  async member(organizationId: string, userId: string, missing: ErrorCode, sql?: Sql): Promise<MemberView> {
    return (await this.d.orgs.findMember(organizationId, userId, sql)) ?? fail(missing);
  }

  can(member: MemberView, permissions: Permissions): boolean {
    return authorizeRoles(member.role, this.roles, permissions).success;
  }

  require(member: MemberView, permissions: Permissions, refusal: ErrorCode): void {
    if (!this.can(member, permissions)) fail(refusal);
  }

  isCreator(role: string): boolean {
    return roleNames(role).includes(this.creatorRole);
  }

  /** "admin, member" or ['admin'] → 'admin,member'; unknown names refused (ROLE_NOT_FOUND). */
  normalizeRoles(role: string | readonly string[]): string {
    const names = roleNames(typeof role === 'string' ? role : role.flatMap((r) => r.split(',')));
    if (!names.length || names.some((n) => !Object.hasOwn(this.roles, n))) fail('ROLE_NOT_FOUND');
    return [...new Set(names)].join(',');
  }

  /**
   * Role escalation guard: `granter` may hand out `role` only if every permission of `role` is one the granter
   * holds, and the creator role only when the granter has it (better-auth: an admin cannot invite an owner).
   */
  mayGrant(granter: MemberView, role: string): boolean {
    if (this.isCreator(role) && !this.isCreator(granter.role)) return false;
    return roleNames(role).every((name) =>
      Object.entries(this.roles[name].grants).every(([resource, actions]) =>
        actions.every((action) => this.can(granter, { [resource]: [action] })),
      ),
    );
  }
}

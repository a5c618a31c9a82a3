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
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditEventType, AuditLog, AuditSource, AuditTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { hasSecondFactor } from '../../shared/second-factor';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { SessionService } from '../session';
import type { InvitationRepository } from './invitations.repository';
import type { OrganizationRepository } from './repository';
import type { TeamRepository } from './teams.repository';
import type { MemberUser, MemberView } from './views';

/**
 * The operator rule: a platform admin, authorised by the admin feature's access model, acts on any
 * organization as its creator role would, without being a member. Only the admin feature's routes mark a caller
 * so (`asOperator`, after their own permission check); the organization routes never do, so for them membership
 * stays the rule (spec §6).
 */
const OPERATOR = Symbol('organization operator');
export type Caller = SessionWithUser & { readonly [OPERATOR]?: true; readonly source?: AuditSource };
export const asOperator = (auth: SessionWithUser): Caller => ({ ...auth, [OPERATOR]: true });
export const isOperator = (auth: SessionWithUser): boolean => (auth as Caller)[OPERATOR] === true;

/**
 * Who acts, for the audit trail: the route's source (`http/audit-source.ts` `withSource`), else the session's user
 * with no request details.
 */
export function sourceOf(auth: SessionWithUser): AuditSource {
  return (
    (auth as Caller).source ?? {
      actor: { type: 'user', id: auth.user.id, impersonatorId: auth.session.impersonatedBy },
      ipAddress: null,
      userAgent: null,
      requestId: null,
    }
  );
}

/** The admin feature's operator rule: the user when they may manage every organization, else null. */
export type OperatorLookup = (userId: string) => Promise<MemberUser | null>;

/** What the organization services share; built once in context.ts. */
export interface OrganizationDeps {
  sql: Sql;
  orgs: OrganizationRepository;
  invitations: InvitationRepository;
  teams: TeamRepository;
  sessions: SessionService;
  config: Config;
  clock: Clock;
  mail: MailOutbox;
  audit: AuditLog;
  operators: OperatorLookup | null;
}

/** Membership and permission checks (spec §6), on the pure access model with the configured custom roles. */
export class OrganizationAccess {
  readonly roles: Record<string, Role>;
  readonly creatorRole: string;
  /** The admin feature's operator rule (wiring.ts) when both features are on. */
  private readonly operatorLookup: OperatorLookup | null;

  constructor(private readonly d: OrganizationDeps) {
    const org = d.config.organization;
    this.roles = buildRoles(ORGANIZATION_STATEMENTS, ORGANIZATION_DEFAULT_ROLES, org.roles, 'organization.roles');
    this.creatorRole = org.creatorRole;
    this.operatorLookup = d.operators;
  }

  /** The organization a call acts in: the one named in the request, else the session's active one. */
  organizationId(given: string | undefined | null, auth: SessionWithUser, missing: ErrorCode): string {
    const id = given || auth.session.activeOrganizationId;
    return id || fail(missing);
  }

  /** A membership as it is, whatever the organization's policy (another member, an inviter, leaving). */
  async member(organizationId: string, userId: string, missing: ErrorCode, sql?: Sql): Promise<MemberView> {
    return (await this.d.orgs.findMember(organizationId, userId, sql)) ?? fail(missing);
  }

  /**
   * The user's own membership, for a call that acts in the organization (or reads it): `missing` when there is none;
   * then, while the organization requires a second factor (docs/two-factor.md "Policies"), a member without one is
   * refused with ORGANIZATION_REQUIRES_TWO_FACTOR. Non-members hear of membership first, so nothing about the
   * organization leaks. One statement, as a plain membership lookup.
   */
  async self(organizationId: string, user: UserView, missing: ErrorCode, sql?: Sql): Promise<MemberView> {
    const found = (await this.d.orgs.findMemberWithPolicy(organizationId, user.id, sql)) ?? fail(missing);
    if (found.requireTwoFactor && !hasSecondFactor(user)) fail('ORGANIZATION_REQUIRES_TWO_FACTOR');
    return found.member;
  }

  /**
   * The caller's standing in the organization: their membership (held to its second-factor policy, see `self`), or
   * for an operator (see OPERATOR) the creator role whether or not they are a member; an unknown organization then
   * answers ORGANIZATION_NOT_FOUND. Operators answer to the admin policy instead (admin/access.ts).
   */
  async caller(organizationId: string, auth: SessionWithUser, missing: ErrorCode, sql?: Sql): Promise<MemberView> {
    if (!isOperator(auth)) return this.self(organizationId, auth.user, missing, sql);
    if (!(await this.d.orgs.findById(organizationId, sql))) fail('ORGANIZATION_NOT_FOUND');
    return this.operatorMember(organizationId, auth.user);
  }

  /** An invitation's inviter: a member, or an operator who invited as one (INVITER_NO_LONGER_A_MEMBER otherwise). */
  async inviter(organizationId: string, inviterId: string): Promise<MemberView> {
    const member = await this.d.orgs.findMember(organizationId, inviterId);
    if (member) return member;
    const operator = this.operatorLookup ? await this.operatorLookup(inviterId) : null;
    return operator ? this.operatorMember(organizationId, operator) : fail('INVITER_NO_LONGER_A_MEMBER');
  }

  private operatorMember(organizationId: string, user: MemberUser): MemberView {
    const { id, name, email, image } = user;
    const createdAt = new Date(this.d.clock.now()).toISOString();
    return { id: '', organizationId, userId: id, role: this.creatorRole, createdAt, user: { id, name, email, image } };
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

/** Records an organization event in `tx`, by the caller `auth` (docs/audit.md). */
export function recordIn(
  d: Pick<OrganizationDeps, 'audit'>,
  tx: Sql,
  auth: SessionWithUser,
  type: AuditEventType,
  organizationId: string,
  target: AuditTarget,
  details?: Record<string, string | number | boolean | null | readonly string[]>,
): Promise<void> {
  return d.audit.record(tx, { type, source: sourceOf(auth), target, organizationId, details });
}

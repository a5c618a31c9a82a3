import { fail } from '../../errors';
import type { BodyOf } from '../../shared/schemas';
import { hasSecondFactor } from '../../shared/second-factor';
import { slugOf } from '../../shared/slug';
import { isUniqueViolation } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import { isOperator, type OrganizationAccess, type OrganizationDeps, recordIn } from './membership';
import type { CreateInput, SetActiveOrganization, UpdateInput } from './organization.schemas';
import type { SecondFactorPolicy } from './second-factor-policy';
import type { OrganizationView } from './views';

/** A result plus the caller's session when its active organization changed (the route re-issues the cookie). */
export interface WithSession<T> {
  result: T;
  session?: SessionWithUser | null;
}

/** What organization changes use. */
export type OrganizationChangeDeps = Pick<
  OrganizationDeps,
  'sql' | 'orgs' | 'teams' | 'sessions' | 'config' | 'clock' | 'audit'
>;

/** spec §7 create, check-slug, update, delete, list and set-active; §5 organization rules. */
export class OrganizationService {
  constructor(
    private readonly d: OrganizationChangeDeps,
    private readonly access: OrganizationAccess,
    private readonly policy: SecondFactorPolicy,
  ) {}

  /**
   * A user creates an organization they own. An operator (access.ts) creates one for the owner `userId` (default:
   * themselves); the user-creation switch and limit do not apply to them, and no session's active one changes.
   * The organization, its default team, the owner's membership and the session's active organization are one
   * transaction.
   */
  async create(auth: SessionWithUser, input: CreateInput) {
    const operator = isOperator(auth);
    const ownerId = (operator && input.userId) || auth.user.id;
    const slug = slugOf(input.slug, 'body.slug');
    // A userId in a body never lets one user act for another.
    if (!operator && input.userId !== undefined && input.userId !== ownerId) fail('FIELD_NOT_ALLOWED');
    const settings = this.d.config.organization;
    if (operator) {
      if (!(await this.d.orgs.findUserBrief(ownerId))) fail('USER_NOT_FOUND');
    } else {
      if (!settings.allowUserToCreateOrganization) fail('NOT_ALLOWED_TO_CREATE_ORGANIZATION');
      if (settings.organizationLimit > 0 && (await this.d.orgs.countForUser(ownerId)) >= settings.organizationLimit)
        fail('ORGANIZATION_LIMIT_REACHED');
    }
    if (await this.d.orgs.findBySlug(slug)) fail('ORGANIZATION_ALREADY_EXISTS');
    const now = new Date(this.d.clock.now());
    const activate = !input.keepCurrentActiveOrganization && !operator;
    const { organization, member, activated } = await this.d.sql
      .transaction(async (tx) => {
        const metadata = input.metadata ? JSON.stringify(input.metadata) : null;
        const org = { name: input.name, slug, logo: input.logo ?? null, metadata };
        const organization = await this.d.orgs.insertOrganization(org, now, tx);
        const team =
          settings.teams.enabled && settings.teams.defaultTeam
            ? await this.d.teams.insert(organization.id, organization.name, now, tx)
            : null;
        const role = this.access.creatorRole;
        const member = await this.d.orgs.insertMember(organization.id, ownerId, role, now, tx, team?.id ?? null);
        if (team) await this.d.teams.addMember(team.id, ownerId, now, tx);
        const activated = activate
          ? await this.d.sessions.setActiveOrganizationIn(tx, auth.session.token, organization.id)
          : null;
        const target = { type: 'organization', id: organization.id } as const;
        const details = { slug, ownerId, defaultTeamId: team?.id ?? null };
        await recordIn(this.d, tx, auth, 'organization.created', organization.id, target, details);
        return { organization, member, activated };
      })
      .catch((error) => (isUniqueViolation(error) ? fail('ORGANIZATION_ALREADY_EXISTS') : Promise.reject(error)));
    const session = activated ? await activated() : undefined;
    return { result: { ...organization, members: [member] }, session };
  }

  async checkSlug(slug: string): Promise<{ status: true }> {
    if (await this.d.orgs.findBySlug(slugOf(slug, 'body.slug'))) fail('SLUG_IS_TAKEN');
    return { status: true };
  }

  /**
   * Turning `requireTwoFactor` on (docs/two-factor.md "Policies") needs a second factor of the member doing it (an
   * owner without one would lock themselves out at once, and one who cannot enrol, signed in only through a social
   * provider, for good), and clears the organization from the sessions of the members without one, in the same
   * transaction.
   */
  async update(auth: SessionWithUser, input: UpdateInput): Promise<OrganizationView> {
    const organizationId = this.access.organizationId(input.organizationId, auth, 'ORGANIZATION_NOT_FOUND');
    const member = await this.access.caller(organizationId, auth, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    this.access.require(member, { organization: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_ORGANIZATION');
    const turnsOn = input.data.requireTwoFactor === true;
    if (turnsOn && !isOperator(auth) && !hasSecondFactor(auth.user)) fail('ORGANIZATION_REQUIRES_TWO_FACTOR');
    const { metadata, ...rest } = input.data;
    const slug = input.data.slug === undefined ? undefined : slugOf(input.data.slug, 'body.data.slug');
    // A taken slug answers as on create (spec §5 "Organization already exists"); check-slug alone says "slug is taken".
    if (slug !== undefined) {
      const holder = await this.d.orgs.findBySlug(slug);
      if (holder && holder.id !== organizationId) fail('ORGANIZATION_ALREADY_EXISTS');
    }
    const data = { ...rest, slug, metadata: metadata ? JSON.stringify(metadata) : undefined };
    const { updated, after } = await this.d.sql
      .transaction(async (tx) => {
        const changed = await this.d.orgs.updateOrganization(organizationId, data, tx);
        const fields = Object.keys(input.data);
        const target = { type: 'organization', id: organizationId } as const;
        if (changed) await recordIn(this.d, tx, auth, 'organization.updated', organizationId, target, { fields });
        const after = changed && turnsOn ? await this.policy.turnedOnIn(tx, organizationId) : null;
        return { updated: changed, after };
      })
      .catch((error) => (isUniqueViolation(error) ? fail('ORGANIZATION_ALREADY_EXISTS') : Promise.reject(error)));
    await after?.();
    return updated ?? fail('ORGANIZATION_NOT_FOUND');
  }

  /** spec §4: members and invitations go first; every session that had it active loses it. */
  async delete(auth: SessionWithUser, organizationId: string): Promise<WithSession<OrganizationView>> {
    if (this.d.config.organization.disableOrganizationDeletion) fail('ORGANIZATION_DELETION_DISABLED');
    const member = await this.access.caller(organizationId, auth, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    this.access.require(member, { organization: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_ORGANIZATION');
    const { organization, evict } = await this.d.sql.transaction(async (tx) => {
      const organization = (await this.d.orgs.findById(organizationId, tx, true)) ?? fail('ORGANIZATION_NOT_FOUND');
      const evict = await this.d.sessions.clearActiveOrganizationIn(tx, organizationId, null);
      await this.d.orgs.deleteOrganization(organizationId, tx);
      const target = { type: 'organization', id: organizationId } as const;
      await recordIn(this.d, tx, auth, 'organization.deleted', organizationId, target, { slug: organization.slug });
      return { organization, evict };
    });
    await evict();
    return { result: organization, session: withoutActive(auth, organizationId) };
  }

  list(userId: string): Promise<OrganizationView[]> {
    return this.d.orgs.listForUser(userId);
  }

  /**
   * better-auth set-active: null clears; no id and no slug keeps (and returns) the current one, held to its
   * second-factor policy like any call that acts in it. Switching to an organization that requires a second factor
   * needs one (docs/two-factor.md "Policies"): checked in the transaction that sets it, holding the user's row and
   * then the organization's (shared), so a second factor removed or a policy turned on concurrently is decided
   * before or after it, never missed (second-factor-policy.ts).
   */
  async setActive(
    auth: SessionWithUser,
    body: BodyOf<typeof SetActiveOrganization>,
  ): Promise<WithSession<OrganizationView | null>> {
    if (body.organizationId === null || (!body.organizationId && !body.organizationSlug)) {
      const current = auth.session.activeOrganizationId;
      if (body.organizationId === null && current) {
        return { result: null, session: await this.d.sessions.setActiveOrganization(auth.session.token, null) };
      }
      if (!current) return { result: null };
      const organization = await this.d.orgs.findById(current);
      if (organization?.requireTwoFactor && !hasSecondFactor(auth.user)) fail('ORGANIZATION_REQUIRES_TWO_FACTOR');
      return { result: organization };
    }
    const { organization, activated } = await this.d.sql.transaction(async (tx) => {
      const user = (await this.d.orgs.lockUser(auth.user.id, tx, 'share')) ?? auth.user;
      const organization = body.organizationId
        ? await this.d.orgs.findById(body.organizationId, tx, 'share')
        : await this.d.orgs.findBySlug(body.organizationSlug!, tx, 'share');
      const member = organization && (await this.d.orgs.findMember(organization.id, user.id, tx));
      // A foreign or unknown organization answers the same: nothing about it leaks.
      if (!organization || !member) return fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
      if (organization.requireTwoFactor && !hasSecondFactor(user)) fail('ORGANIZATION_REQUIRES_TWO_FACTOR');
      const activated = await this.d.sessions.setActiveOrganizationIn(tx, auth.session.token, organization.id);
      return { organization, activated };
    });
    return { result: organization, session: await activated() };
  }
}

/** The caller's session as it is after `organizationId` stopped being active (undefined: it was not active). */
export function withoutActive(auth: SessionWithUser, organizationId: string): SessionWithUser | undefined {
  if (auth.session.activeOrganizationId !== organizationId) return undefined;
  return { session: { ...auth.session, activeOrganizationId: null }, user: auth.user };
}

import { fail, MESSAGES } from '../../errors';
import type { BodyOf, QueryOf } from '../../shared/schemas';
import type { SessionWithUser } from '../../shared/views';
import { teamMemberLimit } from './invitation.service';
import { type OrganizationAccess, type OrganizationDeps, recordIn } from './membership';
import type {
  AddTeamMember,
  CreateTeam,
  ListUserTeams,
  RemoveTeam,
  RemoveTeamMember,
  UpdateTeam,
} from './team.schemas';
import type { TeamMemberView, TeamView } from './views';

/** What team changes use. */
export type TeamDeps = Pick<OrganizationDeps, 'sql' | 'orgs' | 'teams' | 'config' | 'clock' | 'audit'>;

/** spec §7 team calls; §5: name only on update, the last team stays, nobody removes their own team. */
export class TeamService {
  constructor(
    private readonly d: TeamDeps,
    private readonly access: OrganizationAccess,
  ) {}

  async create(auth: SessionWithUser, body: BodyOf<typeof CreateTeam>): Promise<TeamView> {
    const organizationId = this.access.organizationId(body.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const member = await this.access.caller(organizationId, auth, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    this.access.require(member, { team: ['create'] }, 'NOT_ALLOWED_TO_CREATE_TEAMS');
    const maximum = this.d.config.organization.teams.maximumTeams;
    if (maximum > 0 && (await this.d.teams.count(organizationId)) >= maximum) fail('TEAM_LIMIT_REACHED');
    return this.d.sql.transaction(async (tx) => {
      const team = await this.d.teams.insert(organizationId, body.name, new Date(this.d.clock.now()), tx);
      const target = { type: 'team', id: team.id } as const;
      await recordIn(this.d, tx, auth, 'organization.team.created', organizationId, target, { name: team.name });
      return team;
    });
  }

  async update(auth: SessionWithUser, body: BodyOf<typeof UpdateTeam>): Promise<TeamView> {
    const organizationId = this.access.organizationId(body.data.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const member = await this.access.caller(organizationId, auth, 'NOT_ALLOWED_TO_UPDATE_TEAM');
    this.access.require(member, { team: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_TEAM');
    const team = (await this.d.teams.findIn(organizationId, body.teamId)) ?? fail('TEAM_NOT_FOUND');
    const name = body.data.name;
    if (name === undefined) return team;
    const renamed = await this.d.sql.transaction(async (tx) => {
      const row = await this.d.teams.rename(team.id, name, new Date(this.d.clock.now()), tx);
      const details = { name, previousName: team.name };
      const target = { type: 'team', id: team.id } as const;
      if (row) await recordIn(this.d, tx, auth, 'organization.team.updated', organizationId, target, details);
      return row;
    });
    return renamed ?? fail('TEAM_NOT_FOUND');
  }

  async remove(auth: SessionWithUser, body: BodyOf<typeof RemoveTeam>) {
    const organizationId = this.access.organizationId(body.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const member = await this.access.caller(organizationId, auth, 'NOT_ALLOWED_TO_DELETE_TEAM');
    this.access.require(member, { team: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_TEAMS');
    await this.d.sql.transaction(async (tx) => {
      const team = (await this.d.teams.findIn(organizationId, body.teamId, tx, true)) ?? fail('TEAM_NOT_FOUND');
      // The last-team rule first: whoever may delete teams hears why the last one stays, also when it is theirs.
      if (
        !this.d.config.organization.teams.allowRemovingAllTeams &&
        (await this.d.teams.count(organizationId, tx)) <= 1
      )
        fail('UNABLE_TO_REMOVE_LAST_TEAM');
      // "Their own team" (spec §5): a team the caller is a member of (team_members), whatever the active one.
      if (await this.d.teams.findMember(team.id, auth.user.id, tx)) fail('NOT_ALLOWED_TO_DELETE_TEAM');
      await this.d.teams.delete(team.id, tx);
      const target = { type: 'team', id: team.id } as const;
      await recordIn(this.d, tx, auth, 'organization.team.removed', organizationId, target, { name: team.name });
    });
    return { message: MESSAGES.TEAM_REMOVED };
  }

  async list(auth: SessionWithUser, organizationId?: string): Promise<TeamView[]> {
    const id = this.access.organizationId(organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    await this.access.self(id, auth.user, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    return this.d.teams.list(id);
  }

  /**
   * better-auth's listUserTeams: the caller's own teams (in every organization they belong to, or in the one
   * named), or, with another `userId`, that member's teams in the named or active organization, which needs
   * member update there.
   */
  async listForUser(auth: SessionWithUser, query: QueryOf<typeof ListUserTeams>): Promise<TeamView[]> {
    const { userId = auth.user.id } = query;
    if (userId === auth.user.id) {
      // A self-query is not narrowed to the active organization (better-auth), only to one named.
      if (query.organizationId)
        await this.access.self(query.organizationId, auth.user, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
      return this.d.teams.listForUser(auth.user.id, query.organizationId);
    }
    const organizationId = this.access.organizationId(query.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const caller = await this.access.caller(organizationId, auth, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    this.access.require(caller, { member: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_MEMBER');
    await this.access.member(organizationId, userId, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    return this.d.teams.listForUser(userId, organizationId);
  }

  async addMember(auth: SessionWithUser, body: BodyOf<typeof AddTeamMember>): Promise<TeamMemberView> {
    const { organizationId } = await this.authorize(auth, body, 'update', 'NOT_ALLOWED_TO_ADD_TEAM_MEMBER');
    const now = new Date(this.d.clock.now());
    return this.d.sql.transaction(async (tx) => {
      const team = (await this.d.teams.findIn(organizationId, body.teamId, tx, true)) ?? fail('TEAM_NOT_FOUND');
      const existing = await this.d.teams.findMember(team.id, body.userId, tx);
      if (existing) return existing;
      const limit = teamMemberLimit(this.d.config.organization.teams, team.id);
      if (limit > 0 && (await this.d.teams.countMembers(team.id, tx)) >= limit) fail('TEAM_MEMBER_LIMIT_REACHED');
      const added = await this.d.teams.addMember(team.id, body.userId, now, tx);
      const target = { type: 'team', id: team.id } as const;
      const details = { userId: body.userId };
      await recordIn(this.d, tx, auth, 'organization.team.member_added', organizationId, target, details);
      return added;
    });
  }

  async removeMember(auth: SessionWithUser, body: BodyOf<typeof RemoveTeamMember>) {
    const { organizationId } = await this.authorize(auth, body, 'delete', 'NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER');
    const team = (await this.d.teams.findIn(organizationId, body.teamId)) ?? fail('TEAM_NOT_FOUND');
    const removed = await this.d.sql.transaction(async (tx) => {
      if (!(await this.d.teams.removeMember(team.id, body.userId, tx))) return false;
      const target = { type: 'team', id: team.id } as const;
      const details = { userId: body.userId };
      await recordIn(this.d, tx, auth, 'organization.team.member_removed', organizationId, target, details);
      return true;
    });
    if (!removed) fail('USER_IS_NOT_A_MEMBER_OF_THE_TEAM');
    return { message: MESSAGES.TEAM_MEMBER_REMOVED };
  }

  /** The caller may change members (better-auth: member update to add, member delete to remove); the user is a member here. */
  private async authorize(
    auth: SessionWithUser,
    body: { userId: string; organizationId?: string },
    action: 'update' | 'delete',
    refusal: 'NOT_ALLOWED_TO_ADD_TEAM_MEMBER' | 'NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER',
  ) {
    const organizationId = this.access.organizationId(body.organizationId, auth, 'NO_ACTIVE_ORGANIZATION');
    const caller = await this.access.caller(organizationId, auth, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    this.access.require(caller, { member: [action] }, refusal);
    if (!(await this.d.orgs.findMember(organizationId, body.userId))) fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    return { organizationId };
  }
}

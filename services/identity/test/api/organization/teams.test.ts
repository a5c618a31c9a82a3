import {
  as,
  createOrg,
  expectError,
  get,
  join,
  orgAppForThisFile,
  post,
  refusedWithoutChange,
  startOrgApp,
  type User,
  user,
} from './helpers';

const t = orgAppForThisFile();

const call = (u: User, path: string, body: Record<string, unknown>) =>
  post(t.app, `/organization/${path}`, body, as(u.jar));
const defaultTeamOf = async (organizationId: string): Promise<string> =>
  (
    await t.ctx.sql.query('SELECT id FROM teams WHERE organization_id = $1 ORDER BY created_at LIMIT 1', [
      organizationId,
    ])
  )[0].id as string;

/** An organization with its owner, an admin and a member, and one of another owner. */
async function world() {
  const owner = await user(t);
  const org = await createOrg(t, owner);
  const admin = await join(t, owner, org.id, 'admin');
  const member = await join(t, owner, org.id, 'member');
  const otherOwner = await user(t);
  const other = await createOrg(t, otherOwner);
  return { owner, org, admin, member, otherOwner, other };
}

describe('create-team and list-teams', () => {
  it('creates a team (team create) and lists the teams of the organization to its members', async () => {
    const { owner, org, admin, member } = await world();
    const res = await call(admin, 'create-team', { name: 'Red', organizationId: org.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Red',
      organizationId: org.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await get(t.app, `/organization/list-teams?organizationId=${org.id}`, as(member.jar));
    expect(
      list
        .json()
        .map((x: { name: string }) => x.name)
        .sort(),
    ).toEqual([org.name, 'Red'].sort());
    const active = await get(t.app, '/organization/list-teams', as(owner.jar));
    expect(active.json()).toHaveLength(2);
  });

  it('refuses a member without team create, a non-member, an empty name, and over maximumTeams', async () => {
    const { org, member, otherOwner } = await world();
    await refusedWithoutChange(
      t,
      org.id,
      () => call(member, 'create-team', { name: 'X', organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_CREATE_TEAMS',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => call(otherOwner, 'create-team', { name: 'X', organizationId: org.id }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => call(otherOwner, 'create-team', { name: '', organizationId: org.id }),
      400,
      'VALIDATION_ERROR',
    );
    const stranger = await user(t);
    expectError(
      await get(t.app, `/organization/list-teams?organizationId=${org.id}`, as(stranger.jar)),
      403,
      'NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    );
    expectError(await get(t.app, '/organization/list-teams', as(stranger.jar)), 400, 'NO_ACTIVE_ORGANIZATION');
    const c = await startOrgApp({ organization: { teams: { maximumTeams: 1 } } });
    try {
      const o = await user(c);
      const limited = await createOrg(c, o);
      await refusedWithoutChange(
        c,
        limited.id,
        () => post(c.app, '/organization/create-team', { name: 'Two' }, as(o.jar)),
        400,
        'TEAM_LIMIT_REACHED',
      );
    } finally {
      await c.close();
    }
  });
});

describe('update-team', () => {
  it('renames a team; only the name applies', async () => {
    const { org, admin } = await world();
    const teamId = await defaultTeamOf(org.id);
    const res = await call(admin, 'update-team', { teamId, data: { name: 'Renamed', organizationId: org.id } });
    expect(res.json()).toMatchObject({ id: teamId, name: 'Renamed', organizationId: org.id });
  });

  it('refuses members without team update, outsiders, and teams of another organization', async () => {
    const { org, member, other, otherOwner, owner } = await world();
    const teamId = await defaultTeamOf(org.id);
    await refusedWithoutChange(
      t,
      org.id,
      () => call(member, 'update-team', { teamId, data: { name: 'N' } }),
      403,
      'NOT_ALLOWED_TO_UPDATE_TEAM',
      'You are not allowed to update this team',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => call(otherOwner, 'update-team', { teamId, data: { name: 'N', organizationId: org.id } }),
      403,
      'NOT_ALLOWED_TO_UPDATE_TEAM',
    );
    // The owner of org acting in org with the other organization's team id: not found, and it stays unchanged.
    const foreignTeam = await defaultTeamOf(other.id);
    await refusedWithoutChange(
      t,
      other.id,
      () => call(owner, 'update-team', { teamId: foreignTeam, data: { name: 'Pwned', organizationId: org.id } }),
      404,
      'TEAM_NOT_FOUND',
    );
  });
});

describe('remove-team', () => {
  it('removes a team with "Team removed successfully."', async () => {
    const { org, admin, owner } = await world();
    const extra = (await call(owner, 'create-team', { name: 'Gone' })).json();
    const res = await call(admin, 'remove-team', { teamId: extra.id, organizationId: org.id });
    expect([res.statusCode, res.json()]).toEqual([200, { message: 'Team removed successfully.' }]);
    expect(await t.ctx.sql.query('SELECT 1 FROM teams WHERE id = $1', [extra.id])).toEqual([]);
  });

  it('refuses: no team delete, own team, last team, foreign team', async () => {
    const { org, admin, member, owner, other } = await world();
    const first = await defaultTeamOf(org.id);
    const extra = (await call(owner, 'create-team', { name: 'Extra', organizationId: org.id })).json();
    await refusedWithoutChange(
      t,
      org.id,
      () => call(member, 'remove-team', { teamId: extra.id, organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_DELETE_TEAMS',
      'You are not allowed to delete teams in this organization',
    );
    // The owner is in the default team (added at creation): it cannot remove its own team.
    await refusedWithoutChange(
      t,
      org.id,
      () => call(owner, 'remove-team', { teamId: first, organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_DELETE_TEAM',
      'You are not allowed to delete this team',
    );
    const stranger = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => call(stranger, 'remove-team', { teamId: extra.id, organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_DELETE_TEAM',
    );
    const foreignTeam = await defaultTeamOf(other.id);
    await refusedWithoutChange(
      t,
      other.id,
      () => call(owner, 'remove-team', { teamId: foreignTeam, organizationId: org.id }),
      404,
      'TEAM_NOT_FOUND',
    );
    expect((await call(admin, 'remove-team', { teamId: extra.id, organizationId: org.id })).statusCode).toBe(200);
    await refusedWithoutChange(
      t,
      org.id,
      () => call(admin, 'remove-team', { teamId: first, organizationId: org.id }),
      400,
      'UNABLE_TO_REMOVE_LAST_TEAM',
      'Unable to remove last team',
    );
  });

  it('the last-team rule is decided before the own-team rule: the owner in the only team hears "last team"', async () => {
    const { org, owner, admin } = await world();
    const only = await defaultTeamOf(org.id);
    // The owner was placed in the default team at creation: it is their own team and the organization's last.
    expect(
      await t.ctx.sql.query('SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [only, owner.userId]),
    ).toHaveLength(1);
    for (const caller of [owner, admin])
      await refusedWithoutChange(
        t,
        org.id,
        () => call(caller, 'remove-team', { teamId: only, organizationId: org.id }),
        400,
        'UNABLE_TO_REMOVE_LAST_TEAM',
        'Unable to remove last team',
      );
  });

  it('the last team can go when allowRemovingAllTeams is set', async () => {
    const c = await startOrgApp({ organization: { teams: { allowRemovingAllTeams: true, defaultTeam: false } } });
    try {
      const o = await user(c);
      const created = await createOrg(c, o);
      // No default team: the owner's membership has no team.
      expect(created.members[0]).not.toHaveProperty('teamId');
      const team = (await post(c.app, '/organization/create-team', { name: 'Only' }, as(o.jar))).json();
      const res = await post(c.app, '/organization/remove-team', { teamId: team.id }, as(o.jar));
      expect(res.json()).toEqual({ message: 'Team removed successfully.' });
    } finally {
      await c.close();
    }
  });
});

describe('add-team-member and remove-team-member', () => {
  it('adds a member of the organization to a team and removes them', async () => {
    const { org, admin, member } = await world();
    const team = (await call(admin, 'create-team', { name: 'Green', organizationId: org.id })).json();
    const added = await call(admin, 'add-team-member', {
      teamId: team.id,
      userId: member.userId,
      organizationId: org.id,
    });
    expect(added.json()).toEqual({
      id: expect.any(String),
      teamId: team.id,
      userId: member.userId,
      createdAt: expect.any(String),
    });
    const again = await call(admin, 'add-team-member', {
      teamId: team.id,
      userId: member.userId,
      organizationId: org.id,
    });
    expect(again.json().id).toBe(added.json().id);
    const removed = await call(admin, 'remove-team-member', {
      teamId: team.id,
      userId: member.userId,
      organizationId: org.id,
    });
    expect(removed.json()).toEqual({ message: 'Team member removed successfully.' });
    await refusedWithoutChange(
      t,
      org.id,
      () => call(admin, 'remove-team-member', { teamId: team.id, userId: member.userId, organizationId: org.id }),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
    );
  });

  it('refuses members without permission, users outside the organization, foreign teams, and over the limit', async () => {
    const { org, admin, member, owner, other, otherOwner } = await world();
    const team = await defaultTeamOf(org.id);
    await refusedWithoutChange(
      t,
      org.id,
      () => call(member, 'add-team-member', { teamId: team, userId: member.userId, organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_ADD_TEAM_MEMBER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => call(member, 'remove-team-member', { teamId: team, userId: owner.userId, organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => call(admin, 'add-team-member', { teamId: team, userId: otherOwner.userId, organizationId: org.id }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    const foreignTeam = await defaultTeamOf(other.id);
    await refusedWithoutChange(
      t,
      other.id,
      () => call(admin, 'add-team-member', { teamId: foreignTeam, userId: member.userId, organizationId: org.id }),
      404,
      'TEAM_NOT_FOUND',
    );
    await refusedWithoutChange(
      t,
      other.id,
      () =>
        call(admin, 'remove-team-member', { teamId: foreignTeam, userId: otherOwner.userId, organizationId: org.id }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    const c = await startOrgApp({ organization: { teams: { maximumMembersPerTeam: 1 } } });
    try {
      const o = await user(c);
      const limited = await createOrg(c, o);
      const m = await join(c, o, limited.id);
      const full = (await c.ctx.sql.query('SELECT id FROM teams WHERE organization_id = $1', [limited.id]))[0].id;
      await refusedWithoutChange(
        c,
        limited.id,
        () => post(c.app, '/organization/add-team-member', { teamId: full, userId: m.userId }, as(o.jar)),
        403,
        'TEAM_MEMBER_LIMIT_REACHED',
      );
    } finally {
      await c.close();
    }
  });
});

describe('team member limit under concurrency', () => {
  it('adds racing for the last place in a team: never more than the limit', async () => {
    const c = await startOrgApp({ organization: { teams: { maximumMembersPerTeam: 3 } } });
    try {
      const o = await user(c);
      const org = await createOrg(c, o);
      const others = [];
      for (let i = 0; i < 4; i++) others.push(await join(c, o, org.id));
      const team = (await post(c.app, '/organization/create-team', { name: 'Race' }, as(o.jar))).json();
      const answers = await Promise.all(
        others.map((m) =>
          post(c.app, '/organization/add-team-member', { teamId: team.id, userId: m.userId }, as(o.jar)),
        ),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 403]);
      expect(
        await c.ctx.sql.query('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1', [team.id]),
      ).toEqual([{ n: 3 }]);
    } finally {
      await c.close();
    }
  });
});

describe('teams disabled', () => {
  it('registers no team route and creates no default team', async () => {
    const c = await startOrgApp({ organization: { teams: { enabled: false } } });
    try {
      const o = await user(c);
      const org = await createOrg(c, o);
      expect(await c.ctx.sql.query('SELECT 1 FROM teams WHERE organization_id = $1', [org.id])).toEqual([]);
      expect((await post(c.app, '/organization/create-team', { name: 'X' }, as(o.jar))).statusCode).toBe(404);
      expect((await get(c.app, '/organization/list-user-teams', as(o.jar))).statusCode).toBe(404);
      const full = await get(c.app, '/organization/get-full-organization', as(o.jar));
      expect(full.json().teams).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});

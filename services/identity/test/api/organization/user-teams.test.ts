import { randomUUID } from 'node:crypto';
import { as, createOrg, expectError, get, join, orgAppForThisFile, post, type User, user } from './helpers';

/**
 * GET organization/list-user-teams, as better-auth's organization plugin answers it (`listUserTeams`):
 * the teams a user has a place in. Without parameters, the caller's own teams in every organization they are a
 * member of (not only the active one); `organizationId` narrows to one organization the caller is a member of;
 * `userId` asks for another member's teams in `organizationId` (else the active organization) and needs member
 * update there.
 */
const t = orgAppForThisFile();

interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: string;
  updatedAt: string | null;
}

const listUserTeams = (u: User | null, query = '') =>
  get(t.app, `/organization/list-user-teams${query ? `?${query}` : ''}`, u ? as(u.jar) : {});

async function createTeam(owner: User, organizationId: string, name: string): Promise<Team> {
  const res = await post(t.app, '/organization/create-team', { name, organizationId }, as(owner.jar));
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function addToTeam(owner: User, organizationId: string, teamId: string, userId: string) {
  const res = await post(t.app, '/organization/add-team-member', { teamId, userId, organizationId }, as(owner.jar));
  expect(res.statusCode).toBe(200);
}

const byId = (teams: Team[]) => [...teams].sort((a, b) => a.id.localeCompare(b.id));

/**
 * `u` is a member of A with a place in two of its teams (added), and of B with a place in one (the team of the
 * invitation it accepted, which also made B its active organization). A has two teams `u` is not in: its default
 * team (the owner's) and Green.
 */
async function world() {
  const ownerA = await user(t);
  const a = await createOrg(t, ownerA);
  const red = await createTeam(ownerA, a.id, 'Red');
  const blue = await createTeam(ownerA, a.id, 'Blue');
  await createTeam(ownerA, a.id, 'Green');
  const u = await join(t, ownerA, a.id, 'member');
  await addToTeam(ownerA, a.id, red.id, u.userId);
  await addToTeam(ownerA, a.id, blue.id, u.userId);
  const ownerB = await user(t);
  const b = await createOrg(t, ownerB);
  const yellow = await createTeam(ownerB, b.id, 'Yellow');
  const invite = await post(
    t.app,
    '/organization/invite-member',
    { email: u.email, role: 'member', organizationId: b.id, teamId: yellow.id },
    as(ownerB.jar),
  );
  expect(invite.statusCode).toBe(200);
  const accepted = await post(t.app, '/organization/accept-invitation', { invitationId: invite.json().id }, as(u.jar));
  expect(accepted.statusCode).toBe(200);
  return { ownerA, a, red, blue, ownerB, b, yellow, u };
}

describe('list-user-teams', () => {
  it("answers the caller's teams in every organization they belong to, not only the active one", async () => {
    const { red, blue, yellow, u, b } = await world();
    const session = await get(t.app, '/get-session', as(u.jar));
    expect(session.json().session.activeOrganizationId).toBe(b.id);
    const res = await listUserTeams(u);
    expect(res.statusCode).toBe(200);
    expect(byId(res.json())).toEqual(byId([red, blue, yellow]));
  });

  it('narrows to the organization named by organizationId', async () => {
    const { a, b, red, blue, yellow, u } = await world();
    expect(byId((await listUserTeams(u, `organizationId=${a.id}`)).json())).toEqual(byId([red, blue]));
    expect((await listUserTeams(u, `organizationId=${b.id}`)).json()).toEqual([yellow]);
    // Naming oneself as userId is the same self-query.
    expect(byId((await listUserTeams(u, `userId=${u.userId}`)).json())).toEqual(byId([red, blue, yellow]));
  });

  it('answers [] to a user in no team, with or without an organization', async () => {
    const { ownerA, a } = await world();
    const loner = await user(t);
    const noTeam = await join(t, ownerA, a.id, 'member');
    for (const who of [loner, noTeam]) {
      const res = await listUserTeams(who);
      expect([res.statusCode, res.json()]).toEqual([200, []]);
    }
    expect((await listUserTeams(noTeam, `organizationId=${a.id}`)).json()).toEqual([]);
  });

  it('leaves out a team place in an organization the user is no longer a member of', async () => {
    const { red, blue, yellow, u } = await world();
    const other = await user(t);
    const c = await createOrg(t, other);
    const orphan = await createTeam(other, c.id, 'Orphan');
    // A team place without the membership (the service never leaves one behind; better-auth filters it out).
    await t.ctx.sql.query('INSERT INTO team_members (id, team_id, user_id, created_at) VALUES ($1, $2, $3, now())', [
      randomUUID(),
      orphan.id,
      u.userId,
    ]);
    expect(byId((await listUserTeams(u)).json())).toEqual(byId([red, blue, yellow]));
    expect((await listUserTeams(u, `userId=${u.userId}`)).json()).toHaveLength(3);
  });

  it("answers another member's teams in the organization to a caller with member update", async () => {
    const { ownerA, a, red, blue, ownerB, b, yellow, u } = await world();
    expect(byId((await listUserTeams(ownerA, `userId=${u.userId}&organizationId=${a.id}`)).json())).toEqual(
      byId([red, blue]),
    );
    // Without organizationId, the caller's active organization (create made it so).
    expect(byId((await listUserTeams(ownerA, `userId=${u.userId}`)).json())).toEqual(byId([red, blue]));
    expect((await listUserTeams(ownerB, `userId=${u.userId}&organizationId=${b.id}`)).json()).toEqual([yellow]);
  });

  it('refuses what better-auth refuses', async () => {
    const { ownerA, a, b, u } = await world();
    const peer = await join(t, ownerA, a.id, 'member');
    const stranger = await user(t);
    expectError(
      await listUserTeams(stranger, `organizationId=${a.id}`),
      403,
      'NOT_A_MEMBER_OF_THIS_ORGANIZATION',
      'You are not a member of this organization',
    );
    expectError(
      await listUserTeams(stranger, `userId=${u.userId}`),
      400,
      'NO_ACTIVE_ORGANIZATION',
      'No active organization',
    );
    expectError(
      await listUserTeams(stranger, `userId=${u.userId}&organizationId=${a.id}`),
      403,
      'NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    );
    expectError(
      await listUserTeams(peer, `userId=${u.userId}&organizationId=${a.id}`),
      403,
      'NOT_ALLOWED_TO_UPDATE_MEMBER',
      'You are not allowed to update this member',
    );
    expectError(
      await listUserTeams(ownerA, `userId=${stranger.userId}&organizationId=${a.id}`),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
      'User is not a member of the organization',
    );
    expectError(await listUserTeams(ownerA, `organizationId=${b.id}`), 403, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
  });

  it('needs a session', async () => {
    expectError(await listUserTeams(null), 401, 'NOT_AUTHENTICATED', 'Not authenticated');
  });
});

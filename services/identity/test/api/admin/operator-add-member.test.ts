import { type CookieJar, get, post } from '../../setup/fixtures';
import { eventsAbout } from '../audit/helpers';
import {
  as,
  createOrg,
  expectError,
  join,
  type OrgApp,
  refusedWithoutChange,
  snapshot,
  startOrgApp,
  user,
} from '../organization/helpers';
import { signUpAdmin } from './helpers';

/**
 * admin/organization/add-member (better-auth's addMember for operators): an existing user becomes a member at once,
 * with a configured role and optionally a team place; every refusal answers its catalogue error and changes nothing.
 */
let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({
    organization: {
      membershipLimit: 3,
      teams: { enabled: true, defaultTeam: true, maximumMembersPerTeam: 2 },
    },
    admin: { roles: { viewer: { organization: ['list'] } } },
  });
});
afterAll(() => t?.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const addMember = (body: unknown, jar: CookieJar) => post(t.app, '/admin/organization/add-member', body, as(jar));

async function world() {
  const admin = await signUpAdmin(t);
  const owner = await user(t);
  const org = await createOrg(t, owner);
  return { admin, owner, org };
}

describe('admin/organization/add-member', () => {
  it('adds an existing user with the picked roles, no invitation, no mail, and records member added', async () => {
    const { admin, org } = await world();
    const someone = await user(t);
    t.mails.length = 0;
    const res = await addMember(
      { organizationId: org.id, userId: someone.userId, role: ['admin', 'member'] },
      admin.jar,
    );
    expect(res.statusCode).toBe(200);
    const member = res.json();
    expect(member).toMatchObject({
      organizationId: org.id,
      userId: someone.userId,
      role: 'admin,member',
      user: { id: someone.userId, email: someone.email },
    });
    const stored = await snapshot(t, org.id);
    expect(stored.members.map((m) => [m.user_id, m.role])).toContainEqual([someone.userId, 'admin,member']);
    expect(stored.invitations).toEqual([]);
    expect(t.mails).toEqual([]);
    const added = (await eventsAbout(t, org.id)).filter((e) => e.type === 'organization.member.added');
    expect(added.at(-1)).toMatchObject({
      actor_id: admin.userId,
      target_type: 'member',
      target_id: member.id,
      organization_id: org.id,
      details: { userId: someone.userId, role: 'admin,member', teamId: null },
    });
    // The new member's own organization routes now let them in; their active organization did not change.
    const session = await get(t.app, '/get-session?disableCookieCache=true', as(someone.jar));
    expect(session.json().session.activeOrganizationId).toBeNull();
    const full = await get(t.app, `/organization/get-full-organization?organizationId=${org.id}`, as(someone.jar));
    expect(full.statusCode).toBe(200);
  });

  it('with a teamId, the member gets that team place too', async () => {
    const { admin, org } = await world();
    const team = (
      await post(t.app, '/admin/organization/create-team', { organizationId: org.id, name: 'Ops' }, as(admin.jar))
    ).json();
    const someone = await user(t);
    const res = await addMember(
      { organizationId: org.id, userId: someone.userId, role: 'member', teamId: team.id },
      admin.jar,
    );
    expect([res.statusCode, res.json().teamId]).toEqual([200, team.id]);
    const stored = await snapshot(t, org.id);
    expect(stored.teamMembers.map((tm) => [tm.team_id, tm.user_id])).toContainEqual([team.id, someone.userId]);
  });

  it('refuses an unknown user, organization, role or team, and an existing member; nothing changes', async () => {
    const { admin, owner, org } = await world();
    const someone = await user(t);
    const other = await createOrg(t, await user(t));
    const foreignTeam = (await get(t.app, `/admin/organization/get?organizationId=${other.id}`, as(admin.jar))).json()
      .teams[0].id;
    const cases: Array<[unknown, number, string]> = [
      [{ organizationId: org.id, userId: GHOST, role: 'member' }, 404, 'USER_NOT_FOUND'],
      [{ organizationId: org.id, userId: 'not-an-id', role: 'member' }, 404, 'USER_NOT_FOUND'],
      [{ organizationId: org.id, userId: someone.userId, role: 'emperor' }, 400, 'ROLE_NOT_FOUND'],
      [{ organizationId: org.id, userId: someone.userId, role: ['member', 'emperor'] }, 400, 'ROLE_NOT_FOUND'],
      [{ organizationId: org.id, userId: owner.userId, role: 'member' }, 400, 'USER_IS_ALREADY_A_MEMBER'],
      [{ organizationId: org.id, userId: someone.userId, role: 'member', teamId: foreignTeam }, 404, 'TEAM_NOT_FOUND'],
      [{ organizationId: org.id, userId: someone.userId, role: 'member', teamId: GHOST }, 404, 'TEAM_NOT_FOUND'],
      [{ organizationId: org.id, userId: someone.userId, role: '' }, 400, 'VALIDATION_ERROR'],
      [{ organizationId: org.id, userId: someone.userId }, 400, 'VALIDATION_ERROR'],
      [{ organizationId: org.id, userId: someone.userId, role: 'member', extra: 1 }, 400, 'FIELD_NOT_ALLOWED'],
    ];
    for (const [body, status, code] of cases)
      await refusedWithoutChange(t, org.id, () => addMember(body, admin.jar), status, code);
    expectError(
      await addMember({ organizationId: GHOST, userId: someone.userId, role: 'member' }, admin.jar),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expect((await snapshot(t, other.id)).members).toHaveLength(1);
  });

  it('holds the membership and team limits', async () => {
    const { admin, org } = await world();
    const team = (await get(t.app, `/admin/organization/get?organizationId=${org.id}`, as(admin.jar))).json().teams[0];
    // The default team holds the owner; one more fits (maximumMembersPerTeam 2).
    const second = await user(t);
    expect(
      (await addMember({ organizationId: org.id, userId: second.userId, role: 'member', teamId: team.id }, admin.jar))
        .statusCode,
    ).toBe(200);
    const third = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => addMember({ organizationId: org.id, userId: third.userId, role: 'member', teamId: team.id }, admin.jar),
      403,
      'TEAM_MEMBER_LIMIT_REACHED',
    );
    expect(
      (await addMember({ organizationId: org.id, userId: third.userId, role: 'member' }, admin.jar)).statusCode,
    ).toBe(200);
    // membershipLimit 3: the owner and two more.
    const fourth = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => addMember({ organizationId: org.id, userId: fourth.userId, role: 'member' }, admin.jar),
      403,
      'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
    );
  });

  it('two racing adds of one user: one member, the other answers USER_IS_ALREADY_A_MEMBER', async () => {
    const { admin, org } = await world();
    const someone = await user(t);
    const body = { organizationId: org.id, userId: someone.userId, role: 'member' };
    const answers = await Promise.all([addMember(body, admin.jar), addMember(body, admin.jar)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json().code).toBe('USER_IS_ALREADY_A_MEMBER');
    const stored = await snapshot(t, org.id);
    expect(stored.members.filter((m) => m.user_id === someone.userId)).toHaveLength(1);
  });

  it("refuses a viewer, a plain user, the organization's own owner, a member admin and no session", async () => {
    const { owner, org } = await world();
    const viewer = await signUpAdmin(t, 'viewer');
    const memberAdmin = await join(t, owner, org.id, 'admin');
    const someone = await user(t);
    const body = { organizationId: org.id, userId: someone.userId, role: 'member' };
    for (const caller of [viewer, someone, owner, memberAdmin])
      await refusedWithoutChange(
        t,
        org.id,
        () => addMember(body, caller.jar),
        403,
        'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS',
      );
    expectError(await post(t.app, '/admin/organization/add-member', body), 401, 'UNAUTHORIZED');
    // The organization routes have no add-member: members join by invitation there.
    expect((await post(t.app, '/organization/add-member', body, as(owner.jar))).statusCode).toBe(404);
  });
});

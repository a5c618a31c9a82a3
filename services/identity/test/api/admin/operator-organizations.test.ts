import type { LightMyRequestResponse } from 'fastify';
import { type CookieJar, get, post, uniqueEmail } from '../../setup/fixtures';
import {
  as,
  createOrg,
  expectError,
  join,
  type OrgApp,
  refusedWithoutChange,
  snapshot,
  startOrgApp,
  type User,
  uniqueSlug,
  user,
} from '../organization/helpers';
import { signUpAdmin } from './helpers';

/**
 * an operator (admin role, not a member) acts on any organization through admin/organization/*, which
 * run the organization feature's own rules; nobody else gains that power, and the organization routes keep
 * requiring membership.
 */
let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({
    organization: { teams: { enabled: true, defaultTeam: true } },
    admin: { roles: { viewer: { organization: ['list'], user: ['get'] } } },
  });
});
afterAll(() => t?.close());

const op = (path: string, body: unknown, jar: CookieJar) => post(t.app, `/admin/organization/${path}`, body, as(jar));
const opGet = (organizationId: string, jar: CookieJar) =>
  get(t.app, `/admin/organization/get?organizationId=${organizationId}`, as(jar));
const ok = (res: LightMyRequestResponse) => {
  expect([res.statusCode, res.body]).toEqual([200, expect.any(String)]);
  return res.json();
};

async function world() {
  const admin = await signUpAdmin(t);
  const owner = await user(t);
  const org = await createOrg(t, owner);
  return { admin, owner, org };
}

describe('an operator on an organization they are not a member of', () => {
  it('reads it whole: members with users, invitations, teams and who is in which team', async () => {
    const { admin, owner, org } = await world();
    const body = ok(await opGet(org.id, admin.jar));
    expect(body.id).toBe(org.id);
    expect(body.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
    ]);
    expect(body.members[0].user.email).toBe(owner.email);
    expect(body.teams).toHaveLength(1); // the default team
    expect(body.teamMembers).toEqual([expect.objectContaining({ teamId: body.teams[0].id, userId: owner.userId })]);
    expect(body.invitations).toEqual([]);
    // and the organization routes still say no to the non-member admin (spec §6: membership)
    const direct = await get(t.app, `/organization/get-full-organization?organizationId=${org.id}`, as(admin.jar));
    expectError(direct, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    expectError(await opGet('00000000-0000-4000-8000-000000000000', admin.jar), 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('invites (the mail names the operator), resends, and the invitee can accept', async () => {
    const { admin, org } = await world();
    const invitee = await user(t);
    t.mails.length = 0;
    const invitation = ok(
      await op('invite-member', { organizationId: org.id, email: invitee.email, role: 'admin' }, admin.jar),
    );
    expect(invitation).toMatchObject({ status: 'pending', inviterId: admin.userId, role: 'admin' });
    expect(t.mails).toEqual([expect.objectContaining({ kind: 'invitation', to: invitee.email })]);
    expect(t.mails[0]).toMatchObject({ inviterEmail: admin.email });
    const resent = ok(
      await op(
        'invite-member',
        { organizationId: org.id, email: invitee.email, role: 'admin', resend: true },
        admin.jar,
      ),
    );
    expect(resent.id).toBe(invitation.id);
    expect(t.mails).toHaveLength(2);
    const accepted = await post(
      t.app,
      '/organization/accept-invitation',
      { invitationId: invitation.id },
      as(invitee.jar),
    );
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().member).toMatchObject({ userId: invitee.userId, role: 'admin' });
  });

  it('an invitation whose operator is no longer an admin cannot be accepted', async () => {
    const { admin, org } = await world();
    const invitee = await user(t);
    const invitation = ok(
      await op('invite-member', { organizationId: org.id, email: invitee.email, role: 'member' }, admin.jar),
    );
    await t.ctx.features.admin!.users.setRole(null, admin.userId, 'user');
    const res = await post(t.app, '/organization/accept-invitation', { invitationId: invitation.id }, as(invitee.jar));
    expectError(res, 403, 'INVITER_NO_LONGER_A_MEMBER');
    expect((await snapshot(t, org.id)).members).toHaveLength(1);
  });

  it('cancels an invitation', async () => {
    const { admin, owner, org } = await world();
    const inv = await post(
      t.app,
      '/organization/invite-member',
      { organizationId: org.id, email: uniqueEmail('x'), role: 'member' },
      as(owner.jar),
    );
    const canceled = ok(await op('cancel-invitation', { invitationId: inv.json().id }, admin.jar));
    expect(canceled).toMatchObject({ id: inv.json().id, status: 'canceled' });
  });

  it("changes a member's role and removes a member, but never the last owner", async () => {
    const { admin, owner, org } = await world();
    const m = await join(t, owner, org.id, 'member');
    const updated = ok(
      await op('update-member-role', { organizationId: org.id, memberId: m.memberId, role: 'admin' }, admin.jar),
    );
    expect(updated).toMatchObject({ id: m.memberId, role: 'admin' });
    const ownerMember = org.members[0].id;
    await refusedWithoutChange(
      t,
      org.id,
      () => op('update-member-role', { organizationId: org.id, memberId: ownerMember, role: 'member' }, admin.jar),
      400,
      'CANNOT_LEAVE_WITHOUT_AN_OWNER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => op('remove-member', { organizationId: org.id, memberIdOrEmail: owner.email }, admin.jar),
      400,
      'CANNOT_LEAVE_AS_ONLY_OWNER',
    );
    const removed = ok(await op('remove-member', { organizationId: org.id, memberIdOrEmail: m.email }, admin.jar));
    expect(removed.member.id).toBe(m.memberId);
    expect((await snapshot(t, org.id)).members).toHaveLength(1);
    // a member of another organization is not found here
    const other = await createOrg(t, await user(t));
    await refusedWithoutChange(
      t,
      org.id,
      () => op('remove-member', { organizationId: org.id, memberIdOrEmail: other.members[0].id }, admin.jar),
      404,
      'MEMBER_NOT_FOUND',
    );
  });

  it('manages teams: create, rename, add and remove a member, remove', async () => {
    const { admin, owner, org } = await world();
    const m = await join(t, owner, org.id, 'member');
    const team = ok(await op('create-team', { organizationId: org.id, name: 'Support' }, admin.jar));
    expect(team).toMatchObject({ organizationId: org.id, name: 'Support' });
    const renamed = ok(await op('update-team', { organizationId: org.id, teamId: team.id, name: 'Care' }, admin.jar));
    expect(renamed.name).toBe('Care');
    const added = ok(
      await op('add-team-member', { organizationId: org.id, teamId: team.id, userId: m.userId }, admin.jar),
    );
    expect(added).toMatchObject({ teamId: team.id, userId: m.userId });
    expect(ok(await opGet(org.id, admin.jar)).teamMembers).toContainEqual(expect.objectContaining({ id: added.id }));
    // only members of the organization join its teams
    const stranger = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => op('add-team-member', { organizationId: org.id, teamId: team.id, userId: stranger.userId }, admin.jar),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    ok(await op('remove-team-member', { organizationId: org.id, teamId: team.id, userId: m.userId }, admin.jar));
    expect(ok(await op('remove-team', { organizationId: org.id, teamId: team.id }, admin.jar))).toEqual({
      message: 'Team removed successfully.',
    });
    expect((await snapshot(t, org.id)).teams).toHaveLength(1);
  });

  it('creates an organization for an owner (or itself); no session changes its active organization', async () => {
    const admin = await signUpAdmin(t);
    const owner = await user(t);
    const slug = uniqueSlug();
    const created = ok(await op('create', { name: 'Made by ops', slug, userId: owner.userId }, admin.jar));
    expect(created.members).toEqual([expect.objectContaining({ userId: owner.userId, role: 'owner' })]);
    const mine = ok(await op('create', { name: 'Ops own', slug: uniqueSlug() }, admin.jar));
    expect(mine.members[0].userId).toBe(admin.userId);
    const session = await get(t.app, '/get-session?disableCookieCache=true', as(admin.jar));
    expect(session.json().session.activeOrganizationId).toBeNull();
    expectError(
      await op('create', { name: 'Dup', slug, userId: owner.userId }, admin.jar),
      400,
      'ORGANIZATION_ALREADY_EXISTS',
    );
    expectError(
      await op(
        'create',
        { name: 'Ghost', slug: uniqueSlug(), userId: '00000000-0000-4000-8000-000000000000' },
        admin.jar,
      ),
      404,
      'USER_NOT_FOUND',
    );
  });
});

describe('nobody else gains operator power', () => {
  /** Every operator call, with a body aimed at `org`. */
  const calls = (org: { id: string; members: Array<{ id: string }> }, someone: User) =>
    [
      ['create', { name: 'X', slug: uniqueSlug(), userId: someone.userId }],
      ['invite-member', { organizationId: org.id, email: uniqueEmail('x'), role: 'member' }],
      ['cancel-invitation', { invitationId: '00000000-0000-4000-8000-000000000000' }],
      ['update', { organizationId: org.id, data: { name: 'Taken over' } }],
      ['delete', { organizationId: org.id }],
      ['add-member', { organizationId: org.id, userId: someone.userId, role: 'member' }],
      ['update-member-role', { organizationId: org.id, memberId: org.members[0].id, role: 'member' }],
      ['remove-member', { organizationId: org.id, memberIdOrEmail: org.members[0].id }],
      ['create-team', { organizationId: org.id, name: 'T' }],
      ['update-team', { organizationId: org.id, teamId: '00000000-0000-4000-8000-000000000000', name: 'T' }],
      ['remove-team', { organizationId: org.id, teamId: '00000000-0000-4000-8000-000000000000' }],
      ['add-team-member', { organizationId: org.id, teamId: org.id, userId: someone.userId }],
      ['remove-team-member', { organizationId: org.id, teamId: org.id, userId: someone.userId }],
    ] as const;

  it("a plain user, even the organization's own owner, is refused on every operator call; nothing changes", async () => {
    const { owner, org } = await world();
    const plain = await user(t);
    for (const caller of [plain, owner])
      for (const [path, body] of calls(org, plain)) {
        t.mails.length = 0;
        await refusedWithoutChange(
          t,
          org.id,
          () => op(path, body, caller.jar),
          403,
          'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS',
        );
      }
    expectError(await opGet(org.id, plain.jar), 403, 'NOT_ALLOWED_TO_LIST_ORGANIZATIONS');
  });

  it("an admin's impersonation session is refused", async () => {
    const { admin, org } = await world();
    const target = await user(t);
    const jar = admin.jar.clone();
    expect((await post(t.app, '/admin/impersonate-user', { userId: target.userId }, as(jar))).statusCode).toBe(200);
    for (const [path, body] of calls(org, target))
      await refusedWithoutChange(t, org.id, () => op(path, body, jar), 403, 'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS');
    expectError(await opGet(org.id, jar), 403, 'NOT_ALLOWED_TO_LIST_ORGANIZATIONS');
  });

  it('a role that may list organizations may read them but not change them', async () => {
    const { org } = await world();
    const viewer = await signUpAdmin(t, 'viewer');
    expect(ok(await opGet(org.id, viewer.jar)).id).toBe(org.id);
    await refusedWithoutChange(
      t,
      org.id,
      () => op('create-team', { organizationId: org.id, name: 'T' }, viewer.jar),
      403,
      'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS',
    );
  });

  it('without a session: 401', async () => {
    const { org } = await world();
    expectError(
      await post(t.app, '/admin/organization/create-team', { organizationId: org.id, name: 'T' }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await get(t.app, `/admin/organization/get?organizationId=${org.id}`), 401, 'UNAUTHORIZED');
  });
});

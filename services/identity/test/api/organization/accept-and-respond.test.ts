import { uniqueEmail } from '../../setup/fixtures';
import {
  activeOrganizationOf,
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

const invite = (u: User, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(t.app, '/organization/invite-member', body, { jar: u.jar, headers });
const accept = (u: User, invitationId: string) =>
  post(t.app, '/organization/accept-invitation', { invitationId }, as(u.jar));
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('accept-invitation', () => {
  it('creates the membership with the invited role and team, and makes the organization active', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const team = (await post(t.app, '/organization/create-team', { name: 'Blue' }, as(owner.jar))).json();
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'admin', teamId: team.id })).json();
    const res = await accept(invitee, inv.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      invitation: { ...inv, status: 'accepted' },
      member: expect.objectContaining({ organizationId: org.id, userId: invitee.userId, role: 'admin' }),
    });
    expect(
      await t.ctx.sql.query('SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [
        team.id,
        invitee.userId,
      ]),
    ).toHaveLength(1);
    expect(await activeOrganizationOf(t, invitee)).toBe(org.id);
  });

  it("the member record carries the invitation's teamId: in the answer, list-members and get-active-member", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const team = (await post(t.app, '/organization/create-team', { name: 'Green' }, as(owner.jar))).json();
    const teamed = await user(t);
    const inv = (await invite(owner, { email: teamed.email, role: 'member', teamId: team.id })).json();
    const answer = (await accept(teamed, inv.id)).json().member;
    expect(answer).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      userId: teamed.userId,
      role: 'member',
      teamId: team.id,
      createdAt: expect.any(String),
    });
    const plain = await user(t);
    const plainInv = (await invite(owner, { email: plain.email, role: 'member' })).json();
    const plainAnswer = (await accept(plain, plainInv.id)).json().member;
    expect(plainAnswer).not.toHaveProperty('teamId');

    const listed = (await get(t.app, `/organization/list-members?organizationId=${org.id}`, as(owner.jar))).json();
    const byUser = (id: string) => listed.members.find((m: { userId: string }) => m.userId === id);
    expect(byUser(teamed.userId)).toMatchObject({ id: answer.id, teamId: team.id });
    expect(byUser(plain.userId)).not.toHaveProperty('teamId');
    const active = (await get(t.app, '/organization/get-active-member', as(teamed.jar))).json();
    expect(active).toEqual({ ...answer, user: expect.objectContaining({ id: teamed.userId }) });
    expect((await get(t.app, '/organization/get-active-member', as(plain.jar))).json()).not.toHaveProperty('teamId');

    // The field follows the team place: leaving that team, or the team's removal, clears it.
    const removed = await post(
      t.app,
      '/organization/remove-team-member',
      { teamId: team.id, userId: teamed.userId },
      as(owner.jar),
    );
    expect(removed.statusCode).toBe(200);
    expect((await get(t.app, '/organization/get-active-member', as(teamed.jar))).json()).not.toHaveProperty('teamId');
    const other = await user(t);
    const otherInv = (await invite(owner, { email: other.email, role: 'member', teamId: team.id })).json();
    expect((await accept(other, otherInv.id)).json().member.teamId).toBe(team.id);
    expect((await post(t.app, '/organization/remove-team', { teamId: team.id }, as(owner.jar))).statusCode).toBe(200);
    expect((await get(t.app, '/organization/get-active-member', as(other.jar))).json()).not.toHaveProperty('teamId');
  });

  it('treats accepted, canceled, expired and unknown invitations as not found', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    t.clock.advance(172800 + 1);
    await refusedWithoutChange(
      t,
      org.id,
      () => accept(invitee, inv.id),
      404,
      'INVITATION_NOT_FOUND',
      'Invitation not found',
    );
    await refusedWithoutChange(t, org.id, () => accept(invitee, UNKNOWN_ID), 404, 'INVITATION_NOT_FOUND');
    await refusedWithoutChange(t, org.id, () => accept(invitee, 'not-an-id'), 404, 'INVITATION_NOT_FOUND');
    const fresh = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    await post(t.app, '/organization/cancel-invitation', { invitationId: fresh.id }, as(owner.jar));
    await refusedWithoutChange(t, org.id, () => accept(invitee, fresh.id), 404, 'INVITATION_NOT_FOUND');
  });

  it('refuses another user, an unverified email, and an inviter who left', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const unverified = await user(t, { verified: false });
    const inv = (await invite(owner, { email: unverified.email, role: 'member' })).json();
    const other = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => accept(other, inv.id),
      403,
      'NOT_THE_RECIPIENT_OF_THE_INVITATION',
      'You are not the recipient of the invitation',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => accept(unverified, inv.id),
      403,
      'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
    );
    const admin = await join(t, owner, org.id, 'admin');
    const target = await user(t);
    const byAdmin = (await invite(admin, { email: target.email, role: 'member', organizationId: org.id })).json();
    await post(
      t.app,
      '/organization/remove-member',
      { memberIdOrEmail: admin.memberId, organizationId: org.id },
      as(owner.jar),
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => accept(target, byAdmin.id),
      403,
      'INVITER_NO_LONGER_A_MEMBER',
      'Inviter is no longer a member of the organization',
    );
  });

  it('refuses at the membership limit', async () => {
    const c = await startOrgApp({ organization: { membershipLimit: 1 } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const invitee = await user(c);
      const inv = (
        await post(c.app, '/organization/invite-member', { email: invitee.email, role: 'member' }, as(owner.jar))
      ).json();
      await refusedWithoutChange(
        c,
        org.id,
        () => post(c.app, '/organization/accept-invitation', { invitationId: inv.id }, as(invitee.jar)),
        403,
        'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
        'Organization membership limit reached',
      );
    } finally {
      await c.close();
    }
  });

  it('two simultaneous accepts of one invitation: exactly one 200, one membership', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    const answers = await Promise.all([accept(invitee, inv.id), accept(invitee, inv.id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(
      await t.ctx.sql.query('SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2', [
        org.id,
        invitee.userId,
      ]),
    ).toHaveLength(1);
  });

  it('accepts racing the membership limit: never more members than the limit', async () => {
    const c = await startOrgApp({ organization: { membershipLimit: 3 } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const invitees = await Promise.all([1, 2, 3, 4, 5].map(() => user(c)));
      const ids: string[] = [];
      for (const u of invitees)
        ids.push(
          (await post(c.app, '/organization/invite-member', { email: u.email, role: 'member' }, as(owner.jar))).json()
            .id,
        );
      const answers = await Promise.all(
        invitees.map((u, i) => post(c.app, '/organization/accept-invitation', { invitationId: ids[i] }, as(u.jar))),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 403, 403, 403]);
      expect(
        await c.ctx.sql.query('SELECT count(*)::int AS n FROM members WHERE organization_id = $1', [org.id]),
      ).toEqual([{ n: 3 }]);
      const pending = await c.ctx.sql.query(
        "SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1 AND status = 'pending'",
        [org.id],
      );
      expect(pending).toEqual([{ n: 3 }]);
    } finally {
      await c.close();
    }
  });

  it('refuses at the team member limit (per-team override)', async () => {
    const c = await startOrgApp({ organization: { teams: { maximumMembersPerTeam: 5 } } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const team = (await post(c.app, '/organization/create-team', { name: 'Tiny' }, as(owner.jar))).json();
      c.config.organization.teams.memberLimitOverrides[team.id] = 1;
      const a = await user(c);
      const b = await user(c);
      const ia = (
        await post(
          c.app,
          '/organization/invite-member',
          { email: a.email, role: 'member', teamId: team.id },
          as(owner.jar),
        )
      ).json();
      const ib = (
        await post(
          c.app,
          '/organization/invite-member',
          { email: b.email, role: 'member', teamId: team.id },
          as(owner.jar),
        )
      ).json();
      expect(
        (await post(c.app, '/organization/accept-invitation', { invitationId: ia.id }, as(a.jar))).statusCode,
      ).toBe(200);
      await refusedWithoutChange(
        c,
        org.id,
        () => post(c.app, '/organization/accept-invitation', { invitationId: ib.id }, as(b.jar)),
        403,
        'TEAM_MEMBER_LIMIT_REACHED',
        'Team member limit reached',
      );
    } finally {
      await c.close();
    }
  });
});

describe('reject, cancel, get and list invitations', () => {
  it('reject: the recipient rejects a pending invitation; a second reject is not found', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    const other = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/reject-invitation', { invitationId: inv.id }, as(other.jar)),
      403,
      'NOT_THE_RECIPIENT_OF_THE_INVITATION',
    );
    const res = await post(t.app, '/organization/reject-invitation', { invitationId: inv.id }, as(invitee.jar));
    expect(res.json()).toEqual({ invitation: { ...inv, status: 'rejected' }, member: null });
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/reject-invitation', { invitationId: inv.id }, as(invitee.jar)),
      404,
      'INVITATION_NOT_FOUND',
    );
  });

  it('cancel needs invitation cancel, does not check pending, and foreign callers learn nothing', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    const cancel = (u: User) => post(t.app, '/organization/cancel-invitation', { invitationId: inv.id }, as(u.jar));
    await refusedWithoutChange(
      t,
      org.id,
      () => cancel(member),
      403,
      'NOT_ALLOWED_TO_CANCEL_INVITATION',
      'You are not allowed to cancel this invitation',
    );
    const foreignAdmin = await user(t);
    await createOrg(t, foreignAdmin);
    await refusedWithoutChange(t, org.id, () => cancel(foreignAdmin), 404, 'INVITATION_NOT_FOUND');
    await post(t.app, '/organization/reject-invitation', { invitationId: inv.id }, as(invitee.jar));
    const res = await cancel(owner); // spec §4: a rejected invitation can still be canceled
    expect(res.json()).toMatchObject({ id: inv.id, status: 'canceled' });
  });

  it('get-invitation: the recipient sees organization name, slug and inviter email', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    const res = await get(t.app, `/organization/get-invitation?id=${inv.id}`, as(invitee.jar));
    expect(res.json()).toEqual({
      ...inv,
      organizationName: org.name,
      organizationSlug: org.slug,
      inviterEmail: owner.email,
    });
    expectError(
      await get(t.app, `/organization/get-invitation?id=${inv.id}`),
      401,
      'NOT_AUTHENTICATED',
      'Not authenticated',
    );
    expectError(
      await get(t.app, `/organization/get-invitation?id=${inv.id}`, as(owner.jar)),
      403,
      'NOT_THE_RECIPIENT_OF_THE_INVITATION',
    );
    expectError(
      await get(t.app, `/organization/get-invitation?id=${UNKNOWN_ID}`, as(invitee.jar)),
      404,
      'INVITATION_NOT_FOUND',
    );
  });

  it('list-invitations: members of the organization only; organizationId or the active one', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    await invite(owner, { email: uniqueEmail(), role: 'member' });
    const res = await get(t.app, '/organization/list-invitations', as(owner.jar));
    expect(res.json().map((i: { organizationId: string }) => i.organizationId)).toEqual([org.id, org.id]);
    const byMember = await get(t.app, `/organization/list-invitations?organizationId=${org.id}`, as(member.jar));
    expect(byMember.json()).toHaveLength(2);
    const stranger = await user(t);
    expectError(
      await get(t.app, `/organization/list-invitations?organizationId=${org.id}`, as(stranger.jar)),
      403,
      'NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    );
    expectError(
      await get(t.app, '/organization/list-invitations', as(stranger.jar)),
      400,
      'ORGANIZATION_ID_REQUIRED',
      'Organization ID is required',
    );
    expectError(await get(t.app, '/organization/list-invitations'), 401, 'NOT_AUTHENTICATED');
  });

  it('list-user-invitations: live pending invitations addressed to the caller, verified email only', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const inv = (await invite(owner, { email: invitee.email, role: 'member' })).json();
    const res = await get(t.app, '/organization/list-user-invitations', as(invitee.jar));
    expect(res.json()).toEqual([{ ...inv, organizationName: org.name }]);
    expect((await get(t.app, '/organization/list-user-invitations', as(owner.jar))).json()).toEqual([]);
    const unverified = await user(t, { verified: false });
    await invite(owner, { email: unverified.email, role: 'member' });
    const refused = await get(t.app, '/organization/list-user-invitations', as(unverified.jar));
    expectError(refused, 403, 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION');
    expectError(await get(t.app, '/organization/list-user-invitations'), 401, 'NOT_AUTHENTICATED');
  });
});

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
  user,
} from './helpers';

const t = orgAppForThisFile();

describe('list-members', () => {
  it('pages members with their users and a total; filters and sorts', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const a = await join(t, owner, org.id, 'admin');
    await join(t, owner, org.id, 'member');
    const page = await get(
      t.app,
      `/organization/list-members?organizationId=${org.id}&limit=2&offset=0`,
      as(owner.jar),
    );
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(3);
    expect(page.json().members).toHaveLength(2);
    const [first] = page.json().members;
    expect(first).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      userId: expect.any(String),
      role: expect.any(String),
      // Only the owner's membership was made with a team (the default team); the others were invited without one.
      ...(first.userId === owner.userId ? { teamId: expect.any(String) } : {}),
      createdAt: expect.any(String),
      user: { id: expect.any(String), name: expect.any(String), email: expect.any(String), image: null },
    });
    const rest = await get(
      t.app,
      `/organization/list-members?organizationId=${org.id}&limit=2&offset=2`,
      as(owner.jar),
    );
    expect(rest.json().members).toHaveLength(1);
    const all = [...page.json().members, ...rest.json().members].map((m: { id: string }) => m.id);
    expect(new Set(all).size).toBe(3);
    const admins = await get(
      t.app,
      `/organization/list-members?filterField=role&filterValue=admin&filterOperator=eq`,
      as(a.jar),
    );
    expect(admins.json()).toMatchObject({ total: 1, members: [{ userId: a.userId }] });
  });

  it('refuses a non-member of the named organization, and no organization at all', async () => {
    const foreign = await createOrg(t, await user(t));
    const u = await user(t);
    const res = await get(t.app, `/organization/list-members?organizationId=${foreign.id}`, as(u.jar));
    expectError(res, 403, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION', 'You are not a member of this organization');
    expectError(
      await get(t.app, '/organization/list-members', as(u.jar)),
      400,
      'NO_ACTIVE_ORGANIZATION',
      'No active organization',
    );
  });
});

describe('get-active-member', () => {
  it("returns the caller's membership in the active organization", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const res = await get(t.app, '/organization/get-active-member', as(owner.jar));
    expect(res.json()).toMatchObject({ organizationId: org.id, userId: owner.userId, role: 'owner' });
  });

  it('answers No active organization, then Member not found after removal from the active one', async () => {
    const u = await user(t);
    expectError(await get(t.app, '/organization/get-active-member', as(u.jar)), 400, 'NO_ACTIVE_ORGANIZATION');
    // An active organization id left on a session (written behind the service) that the user is not a member of.
    const foreign = await createOrg(t, await user(t));
    await t.ctx.sql.query('UPDATE sessions SET active_organization_id = $1 WHERE token = $2', [foreign.id, u.token]);
    const res = await get(t.app, '/organization/get-active-member', { bearer: u.token });
    expectError(res, 404, 'MEMBER_NOT_FOUND', 'Member not found');
  });
});

describe('get-active-member-role (better-auth)', () => {
  it("answers the caller's role, a fellow member's by userId, and refuses outsiders", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const m = await join(t, owner, org.id, 'admin');
    expect((await get(t.app, '/organization/get-active-member-role', as(owner.jar))).json()).toEqual({ role: 'owner' });
    const other = await get(t.app, `/organization/get-active-member-role?userId=${m.userId}`, as(owner.jar));
    expect(other.json()).toEqual({ role: 'admin' });
    const outsider = await user(t);
    const foreign = await get(t.app, `/organization/get-active-member-role?userId=${outsider.userId}`, as(owner.jar));
    expectError(foreign, 403, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
    const res = await get(t.app, `/organization/get-active-member-role?organizationId=${org.id}`, as(outsider.jar));
    expectError(res, 403, 'NOT_A_MEMBER_OF_THIS_ORGANIZATION');
  });
});

describe('remove-member', () => {
  it('removes by id and by email; the removed user loses the active organization', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const byId = await join(t, owner, org.id);
    const byEmail = await join(t, owner, org.id);
    expect(await activeOrganizationOf(t, byId)).toBe(org.id);
    const r1 = await post(t.app, '/organization/remove-member', { memberIdOrEmail: byId.memberId }, as(owner.jar));
    expect(r1.statusCode).toBe(200);
    expect(r1.json().member).toMatchObject({ id: byId.memberId, userId: byId.userId, organizationId: org.id });
    const r2 = await post(
      t.app,
      '/organization/remove-member',
      { memberIdOrEmail: byEmail.email.toUpperCase(), organizationId: org.id },
      as(owner.jar),
    );
    expect(r2.json().member.userId).toBe(byEmail.userId);
    const left = await t.ctx.sql.query('SELECT user_id FROM members WHERE organization_id = $1', [org.id]);
    expect(left).toEqual([{ user_id: owner.userId }]);
    const session = await get(t.app, '/get-session', { bearer: byId.token });
    expect(session.json().session.activeOrganizationId).toBeNull();
  });

  it('refuses without member delete, an admin removing the owner, the only owner, and foreign members', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    const otherOwner = await user(t);
    const other = await createOrg(t, otherOwner);
    const outsider = await join(t, otherOwner, other.id);
    const remove = (jar: typeof owner.jar, memberIdOrEmail: string) =>
      post(t.app, '/organization/remove-member', { memberIdOrEmail, organizationId: org.id }, as(jar));
    await refusedWithoutChange(
      t,
      org.id,
      () => remove(member.jar, admin.memberId),
      403,
      'NOT_ALLOWED_TO_DELETE_MEMBER',
      'You are not allowed to delete this member',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => remove(admin.jar, org.members[0].id),
      403,
      'NOT_ALLOWED_TO_DELETE_MEMBER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => remove(owner.jar, org.members[0].id),
      400,
      'CANNOT_LEAVE_AS_ONLY_OWNER',
      'You cannot leave the organization as the only owner',
    );
    // A member id and an email of another organization's member: not found here, and untouched there.
    await refusedWithoutChange(t, other.id, () => remove(owner.jar, outsider.memberId), 404, 'MEMBER_NOT_FOUND');
    await refusedWithoutChange(t, other.id, () => remove(owner.jar, outsider.email), 404, 'MEMBER_NOT_FOUND');
    const stranger = await user(t);
    await refusedWithoutChange(t, org.id, () => remove(stranger.jar, member.memberId), 404, 'MEMBER_NOT_FOUND');
  });
});

describe('update-member-role', () => {
  it('changes a role; several roles are stored comma-separated', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const m = await join(t, owner, org.id);
    const res = await post(
      t.app,
      '/organization/update-member-role',
      { memberId: m.memberId, role: ['admin', 'member'] },
      as(owner.jar),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: m.memberId, role: 'admin,member' });
  });

  it('refuses escalation, unknown roles, members without member update, foreign members', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    const update = (jar: typeof owner.jar, memberId: string, role: string) =>
      post(t.app, '/organization/update-member-role', { memberId, role, organizationId: org.id }, as(jar));
    await refusedWithoutChange(
      t,
      org.id,
      () => update(member.jar, member.memberId, 'admin'),
      403,
      'NOT_ALLOWED_TO_UPDATE_MEMBER',
      'You are not allowed to update this member',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => update(admin.jar, member.memberId, 'owner'),
      403,
      'NOT_ALLOWED_TO_UPDATE_MEMBER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => update(admin.jar, org.members[0].id, 'member'),
      403,
      'NOT_ALLOWED_TO_UPDATE_MEMBER',
    );
    await refusedWithoutChange(t, org.id, () => update(owner.jar, member.memberId, 'superuser'), 400, 'ROLE_NOT_FOUND');
    await refusedWithoutChange(
      t,
      org.id,
      () => update(owner.jar, org.members[0].id, 'member'),
      400,
      'CANNOT_LEAVE_WITHOUT_AN_OWNER',
    );
    const other = await user(t);
    const otherOrg = await createOrg(t, other);
    const outsider = await join(t, other, otherOrg.id);
    await refusedWithoutChange(
      t,
      otherOrg.id,
      () => update(owner.jar, outsider.memberId, 'admin'),
      404,
      'MEMBER_NOT_FOUND',
    );
  });
});

describe('leave', () => {
  it('leaves, clears the active organization; the only owner cannot leave', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const m = await join(t, owner, org.id);
    const res = await post(t.app, '/organization/leave', { organizationId: org.id }, as(m.jar));
    expect(res.json()).toMatchObject({ id: m.memberId, userId: m.userId });
    expect(await activeOrganizationOf(t, m)).toBeNull();
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/leave', { organizationId: org.id }, as(owner.jar)),
      400,
      'CANNOT_LEAVE_AS_ONLY_OWNER',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/leave', { organizationId: org.id }, as(m.jar)),
      404,
      'MEMBER_NOT_FOUND',
    );
  });

  it('the accepted invitation names its member while the membership lasts (leaving, removal, deletion clear it)', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const acceptedBy = async () =>
      (
        await t.ctx.sql.query<{ email: string; accepted_by: string | null }>(
          "SELECT email, accepted_by FROM invitations WHERE organization_id = $1 AND status = 'accepted' ORDER BY email",
          [org.id],
        )
      ).map((r) => [r.email, r.accepted_by]);
    const [leaver, removed, deleted] = [
      await join(t, owner, org.id),
      await join(t, owner, org.id),
      await join(t, owner, org.id),
    ];
    const named = (...users: Array<typeof leaver>) =>
      [leaver, removed, deleted].map((u) => [u.email, users.includes(u) ? u.userId : null]).sort();
    expect(await acceptedBy()).toEqual(named(leaver, removed, deleted));
    await post(t.app, '/organization/leave', { organizationId: org.id }, as(leaver.jar));
    expect(await acceptedBy()).toEqual(named(removed, deleted));
    const res = await post(
      t.app,
      '/organization/remove-member',
      { memberIdOrEmail: removed.email, organizationId: org.id },
      as(owner.jar),
    );
    expect(res.statusCode).toBe(200);
    expect(await acceptedBy()).toEqual(named(deleted));
    expect((await post(t.app, '/delete-user', {}, as(deleted.jar))).json()).toMatchObject({ success: true });
    expect(await acceptedBy()).toEqual(named());
  });

  it('two owners leaving at once: exactly one succeeds, an owner remains', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const second = await join(t, owner, org.id, 'owner');
    const answers = await Promise.all(
      [owner, second].map((u) => post(t.app, '/organization/leave', { organizationId: org.id }, as(u.jar))),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(
      await t.ctx.sql.query("SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND role = 'owner'", [
        org.id,
      ]),
    ).toEqual([{ n: 1 }]);
  });
});

describe('has-permission and the role matrix (spec §6)', () => {
  const checks: Array<[Record<string, string[]>, boolean, boolean, boolean]> = [
    // permission, owner, admin, member
    [{ organization: ['update'] }, true, true, false],
    [{ organization: ['delete'] }, true, false, false],
    [{ member: ['create', 'update', 'delete'] }, true, true, false],
    [{ invitation: ['create', 'cancel'] }, true, true, false],
    [{ team: ['create', 'update', 'delete'] }, true, true, false],
  ];

  it('answers owner/admin/member as the spec table says', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    for (const [permissions, ...expected] of checks) {
      const got = [];
      for (const u of [owner, admin, member]) {
        const res = await post(
          t.app,
          '/organization/has-permission',
          { permissions, organizationId: org.id },
          as(u.jar),
        );
        expect(res.statusCode).toBe(200);
        got.push(res.json().success);
      }
      expect([permissions, got]).toEqual([permissions, expected]);
    }
    const legacy = await post(
      t.app,
      '/organization/has-permission',
      { permission: { team: ['create'] } },
      as(admin.jar),
    );
    expect(legacy.json()).toEqual({ error: null, success: true });
  });

  it('refuses an empty check, a non-member, and no active organization', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    expectError(
      await post(t.app, '/organization/has-permission', { permissions: {} }, as(owner.jar)),
      400,
      'INVALID_PERMISSION_CHECK',
    );
    const stranger = await user(t);
    const body = { permissions: { team: ['create'] } };
    expectError(
      await post(t.app, '/organization/has-permission', body, as(stranger.jar)),
      400,
      'NO_ACTIVE_ORGANIZATION',
    );
    const res = await post(
      t.app,
      '/organization/has-permission',
      { ...body, organizationId: org.id },
      as(stranger.jar),
    );
    expectError(res, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
  });
});

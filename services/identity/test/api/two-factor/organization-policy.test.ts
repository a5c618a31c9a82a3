import { decodeJwt } from 'jose';
import { CookieJar, PASSWORD, sessionOf } from '../../setup/fixtures';
import { signUpAdmin } from '../admin/helpers';
import {
  as,
  createOrg,
  expectError,
  get,
  join,
  orgAppForThisFile,
  post,
  refusedWithoutChange,
  type User,
  uniqueSlug,
  user,
} from '../organization/helpers';
import { codeAt, pendingSignIn, secretOf } from './helpers';

/** An organization's second-factor policy, `requireTwoFactor` (docs/two-factor.md "Policies"). */
const t = orgAppForThisFile();

type Enrolled = User & { secret: string };

async function enrol<U extends User>(u: U): Promise<U & { secret: string }> {
  const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, as(u.jar))).json();
  const secret = secretOf(totpURI);
  const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secret) }, as(u.jar));
  expect(res.statusCode).toBe(200);
  t.clock.advance(30);
  return { ...u, secret };
}

/** Another browser of an enrolled user: password, then a code. */
async function secondBrowser(u: Enrolled): Promise<CookieJar> {
  const { jar } = await pendingSignIn(t, u.email);
  const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
  expect(res.statusCode).toBe(200);
  t.clock.advance(30);
  return jar;
}

/** The session's active organization as get-session answers it past the cookie cache (Redis, then PostgreSQL). */
const activeIn = async (jar: CookieJar) =>
  (await sessionOf(t.app, { jar }, '?disableCookieCache=true')).session.activeOrganizationId;
const activeOf = (u: User) => activeIn(u.jar);
/** The same, straight from PostgreSQL. */
const storedActive = async (jar: CookieJar) =>
  (
    await t.ctx.sql.query<{ active_organization_id: string | null }>(
      'SELECT active_organization_id FROM sessions WHERE token = $1',
      [(await sessionOf(t.app, { jar })).session.token],
    )
  )[0].active_organization_id;

const requireTwoFactor = (owner: User, organizationId: string, on = true) =>
  post(t.app, '/organization/update', { organizationId, data: { requireTwoFactor: on } }, as(owner.jar));

describe('organization requireTwoFactor', () => {
  it('is off for a new organization, answered on the model, and set by an owner through update', async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    const full = await get(t.app, `/organization/get-full-organization?organizationId=${org.id}`, as(owner.jar));
    expect(full.json().requireTwoFactor).toBe(false);
    const res = await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      as(owner.jar),
    );
    expect([res.statusCode, res.json().requireTwoFactor]).toEqual([200, true]);
    const stored = await t.ctx.sql.query('SELECT require_two_factor FROM organizations WHERE id = $1', [org.id]);
    expect(stored[0].require_two_factor).toBe(true);
  });

  it('refuses bad values and members without the update permission; nothing changes', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    for (const value of ['yes', 1, null]) {
      const res = await post(
        t.app,
        '/organization/update',
        { organizationId: org.id, data: { requireTwoFactor: value } },
        as(owner.jar),
      );
      expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const byMember = await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      as(member.jar),
    );
    expectError(byMember, 403, 'NOT_ALLOWED_TO_UPDATE_ORGANIZATION');
    // create does not take it: organizations start without the policy
    const created = await post(
      t.app,
      '/organization/create',
      { name: 'X', slug: uniqueSlug(), requireTwoFactor: true },
      as(owner.jar),
    );
    expect([created.statusCode, created.json().code]).toEqual([400, 'FIELD_NOT_ALLOWED']);
    const stored = await t.ctx.sql.query('SELECT require_two_factor FROM organizations WHERE id = $1', [org.id]);
    expect(stored[0].require_two_factor).toBe(false);
  });

  it('set-active by a member without a second factor is refused; with one it passes', async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    await post(t.app, '/organization/set-active', { organizationId: null }, as(member.jar));
    await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      as(owner.jar),
    );
    const refused = await post(t.app, '/organization/set-active', { organizationId: org.id }, as(member.jar));
    expectError(refused, 403, 'ORGANIZATION_REQUIRES_TWO_FACTOR');
    expect(refused.json().message).toContain('second factor');
    const bySlug = await post(t.app, '/organization/set-active', { organizationSlug: org.slug }, as(member.jar));
    expectError(bySlug, 403, 'ORGANIZATION_REQUIRES_TWO_FACTOR');
    expect(await activeOf(member)).toBeNull();
    // a stranger still learns nothing about the organization
    const stranger = await user(t);
    const foreign = await post(t.app, '/organization/set-active', { organizationId: org.id }, as(stranger.jar));
    expectError(foreign, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    await enrol(member);
    const passed = await post(t.app, '/organization/set-active', { organizationId: org.id }, as(member.jar));
    expect([passed.statusCode, passed.json().id]).toEqual([200, org.id]);
    expect(await activeOf(member)).toBe(org.id);
  });

  it('accepting an invitation without a second factor joins but does not make the organization active', async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      as(owner.jar),
    );
    const member = await join(t, owner, org.id, 'member');
    expect(await activeOf(member)).toBeNull();
    const members = await t.ctx.sql.query('SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2', [
      org.id,
      member.userId,
    ]);
    expect(members).toHaveLength(1);
  });
});

describe('a member without a second factor cannot act in an organization that requires one', () => {
  /**
   * An organization requiring a second factor; `member`, an owner of it without one, still has it active (a session
   * left so by hand: every route must refuse on its own, not only because the organization is no longer active).
   */
  async function setUp() {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'owner');
    const other = await join(t, owner, org.id, 'member');
    expect((await requireTwoFactor(owner, org.id)).statusCode).toBe(200);
    const team = (await get(t.app, `/organization/list-teams?organizationId=${org.id}`, as(owner.jar))).json()[0];
    const invitation = (
      await post(
        t.app,
        '/organization/invite-member',
        { email: `later-${uniqueSlug()}@example.com`, role: 'member', organizationId: org.id },
        as(owner.jar),
      )
    ).json();
    await t.ctx.features.session.sessions.changeUser(member.userId, (tx) =>
      tx.query('UPDATE sessions SET active_organization_id = $1 WHERE user_id = $2', [org.id, member.userId]),
    );
    return { owner, org, member, other, team, invitation };
  }

  it('every organization route that names it or acts on the active one answers ORGANIZATION_REQUIRES_TWO_FACTOR and changes nothing', async () => {
    const { org, member, other, team, invitation } = await setUp();
    const id = org.id;
    const reads = [
      `/organization/get-full-organization?organizationId=${id}`,
      '/organization/get-full-organization',
      `/organization/get-full-organization?organizationSlug=${org.slug}`,
      `/organization/list-members?organizationId=${id}`,
      '/organization/list-members',
      '/organization/get-active-member',
      '/organization/get-active-member-role',
      `/organization/get-active-member-role?organizationId=${id}&userId=${other.userId}`,
      `/organization/list-invitations?organizationId=${id}`,
      '/organization/list-invitations',
      `/organization/list-teams?organizationId=${id}`,
      '/organization/list-teams',
      `/organization/list-user-teams?organizationId=${id}`,
      `/organization/list-events?organizationId=${id}`,
      '/organization/list-events',
      `/api-key/list?organizationId=${id}`,
    ];
    for (const path of reads) {
      const res = await get(t.app, path, as(member.jar));
      expect([path, res.statusCode, res.json().code]).toEqual([path, 403, 'ORGANIZATION_REQUIRES_TWO_FACTOR']);
    }
    const writes: Array<[string, object]> = [
      ['/organization/set-active', { organizationId: id }],
      ['/organization/set-active', { organizationSlug: org.slug }],
      ['/organization/set-active', {}],
      ['/organization/update', { organizationId: id, data: { name: 'Taken over' } }],
      ['/organization/update', { data: { requireTwoFactor: false } }],
      ['/organization/delete', { organizationId: id }],
      ['/organization/has-permission', { organizationId: id, permissions: { member: ['create'] } }],
      ['/organization/has-permission', { permissions: { member: ['create'] } }],
      ['/organization/invite-member', { email: `x-${uniqueSlug()}@example.com`, role: 'member', organizationId: id }],
      ['/organization/cancel-invitation', { invitationId: invitation.id }],
      ['/organization/remove-member', { memberIdOrEmail: other.memberId, organizationId: id }],
      ['/organization/update-member-role', { memberId: other.memberId, role: 'admin', organizationId: id }],
      ['/organization/create-team', { name: 'New team', organizationId: id }],
      ['/organization/update-team', { teamId: team.id, data: { name: 'Renamed', organizationId: id } }],
      ['/organization/remove-team', { teamId: team.id, organizationId: id }],
      ['/organization/add-team-member', { teamId: team.id, userId: other.userId, organizationId: id }],
      ['/organization/remove-team-member', { teamId: team.id, userId: other.userId }],
      ['/api-key/create', { name: 'org key', organizationId: id }],
    ];
    for (const [path, body] of writes) {
      const before = await t.ctx.sql.query('SELECT count(*)::int AS n FROM api_keys WHERE organization_id = $1', [id]);
      const res = await refusedWithoutChange(
        t,
        id,
        () => post(t.app, path, body, as(member.jar)),
        403,
        'ORGANIZATION_REQUIRES_TWO_FACTOR',
        'This organization requires a second factor. Enable two-factor authentication to act in it.',
      );
      expect(res.statusCode).toBe(403);
      const after = await t.ctx.sql.query('SELECT count(*)::int AS n FROM api_keys WHERE organization_id = $1', [id]);
      expect(after).toEqual(before);
    }
    // /token: no role in it for the member
    const token = (await get(t.app, '/token', as(member.jar))).json().token;
    expect(decodeJwt(token).activeOrganizationRole).toBeNull();
  });

  it('what is not acting in it stays open: the list of organizations, leaving, invitations of their own', async () => {
    const { org, member, other } = await setUp();
    const list = await get(t.app, '/organization/list', as(member.jar));
    expect(list.json()).toEqual([expect.objectContaining({ id: org.id, requireTwoFactor: true })]);
    const left = await post(t.app, '/organization/leave', { organizationId: org.id }, as(other.jar));
    expect(left.statusCode).toBe(200);
    // with a second factor, the same member acts again
    const enrolled = await enrol(member);
    const full = await get(t.app, `/organization/get-full-organization?organizationId=${org.id}`, as(enrolled.jar));
    expect([full.statusCode, full.json().id]).toEqual([200, org.id]);
  });

  it('turning it on needs a second factor of the member doing it; an operator needs none (the admin policy holds them)', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    await refusedWithoutChange(
      t,
      org.id,
      () => requireTwoFactor(owner, org.id),
      403,
      'ORGANIZATION_REQUIRES_TWO_FACTOR',
    );
    const admin = await signUpAdmin(t);
    const byOperator = await post(
      t.app,
      '/admin/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      { jar: admin.jar },
    );
    expect([byOperator.statusCode, byOperator.json().requireTwoFactor]).toEqual([200, true]);
    // the owner, without a second factor, can no longer change it (nor turn it off) until they enrol
    await refusedWithoutChange(
      t,
      org.id,
      () => requireTwoFactor(owner, org.id, false),
      403,
      'ORGANIZATION_REQUIRES_TWO_FACTOR',
    );
    const enrolled = await enrol(owner);
    expect((await requireTwoFactor(enrolled, org.id, false)).json().requireTwoFactor).toBe(false);
  });
});

describe('sessions do not keep an organization whose policy their user does not meet', () => {
  it('turning the policy on clears it from the sessions of members without a second factor, Redis entries too', async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    const without = await join(t, owner, org.id, 'admin');
    const withFactor = await enrol(await join(t, owner, org.id));
    await post(t.app, '/organization/set-active', { organizationId: org.id }, as(withFactor.jar));
    // a second browser of the member without a factor, and every session's entry cached in Redis
    const { jar: otherBrowser } = await (async () => {
      const res = await post(t.app, '/sign-in/email', { email: without.email, password: PASSWORD });
      const jar = new CookieJar().store(res);
      await post(t.app, '/organization/set-active', { organizationId: org.id }, { jar });
      return { jar };
    })();
    for (const jar of [owner.jar, without.jar, withFactor.jar, otherBrowser]) expect(await activeIn(jar)).toBe(org.id);
    expect((await requireTwoFactor(owner, org.id)).statusCode).toBe(200);
    expect([await activeOf(without), await activeIn(otherBrowser)]).toEqual([null, null]);
    expect([await storedActive(without.jar), await storedActive(otherBrowser)]).toEqual([null, null]);
    expect([await activeOf(owner), await activeOf(withFactor)]).toEqual([org.id, org.id]);
    // the browser's session-cache cookie (60 s, signed before the change) lapses; then get-session answers null
    t.clock.advance(t.config.session.cookieCacheMaxAgeSec + 1);
    expect((await sessionOf(t.app, { jar: without.jar })).session.activeOrganizationId).toBeNull();
  });

  it('turning the second factor off clears the organizations requiring one from all the user’s sessions, not the others', async () => {
    const owner = await enrol(await user(t));
    const strict = await createOrg(t, owner);
    const relaxed = await createOrg(t, owner);
    const member = await enrol(await join(t, owner, strict.id));
    const relaxedMember = await post(
      t.app,
      '/organization/invite-member',
      { email: member.email, role: 'member', organizationId: relaxed.id },
      as(owner.jar),
    );
    await post(t.app, '/organization/accept-invitation', { invitationId: relaxedMember.json().id }, as(member.jar));
    expect((await requireTwoFactor(owner, strict.id)).statusCode).toBe(200);
    const strictBrowser = await secondBrowser(member);
    await post(t.app, '/organization/set-active', { organizationId: strict.id }, { jar: strictBrowser });
    const relaxedBrowser = await secondBrowser(member);
    await post(t.app, '/organization/set-active', { organizationId: relaxed.id }, { jar: relaxedBrowser });
    await post(t.app, '/organization/set-active', { organizationId: strict.id }, as(member.jar));
    for (const [jar, id] of [
      [member.jar, strict.id],
      [strictBrowser, strict.id],
      [relaxedBrowser, relaxed.id],
    ] as const)
      expect(await activeIn(jar)).toBe(id);
    const off = await post(t.app, '/two-factor/disable', { password: PASSWORD }, as(member.jar));
    expect(off.statusCode).toBe(200);
    // the browser that turned it off gets a session-cache cookie without it at once
    expect((await sessionOf(t.app, { jar: member.jar })).session.activeOrganizationId).toBeNull();
    expect([await activeOf(member), await activeIn(strictBrowser), await activeIn(relaxedBrowser)]).toEqual([
      null,
      null,
      relaxed.id,
    ]);
    expect(await storedActive(strictBrowser)).toBeNull();
  });

  it("an operator's reset of the second factor clears them too", async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    const member = await enrol(await join(t, owner, org.id));
    expect((await requireTwoFactor(owner, org.id)).statusCode).toBe(200);
    await post(t.app, '/organization/set-active', { organizationId: org.id }, as(member.jar));
    expect(await activeOf(member)).toBe(org.id);
    const admin = await signUpAdmin(t);
    const reset = await post(t.app, '/admin/reset-two-factor', { userId: member.userId }, { jar: admin.jar });
    expect(reset.statusCode).toBe(200);
    expect([await activeOf(member), await storedActive(member.jar)]).toEqual([null, null]);
    expect(await activeOf(owner)).toBe(org.id);
  });

  it('set-active racing the removal of the second factor never leaves the organization active without one', async () => {
    const owner = await enrol(await user(t));
    const org = await createOrg(t, owner);
    expect((await requireTwoFactor(owner, org.id)).statusCode).toBe(200);
    for (let round = 0; round < 6; round++) {
      const member = await enrol(await user(t));
      const invited = await post(
        t.app,
        '/organization/invite-member',
        { email: member.email, role: 'member', organizationId: org.id },
        as(owner.jar),
      );
      await post(t.app, '/organization/accept-invitation', { invitationId: invited.json().id }, as(member.jar));
      await post(t.app, '/organization/set-active', { organizationId: null }, as(member.jar));
      const browser = await secondBrowser(member);
      const [switched, off] = await Promise.all([
        post(t.app, '/organization/set-active', { organizationId: org.id }, { jar: browser }),
        post(t.app, '/two-factor/disable', { password: PASSWORD }, as(member.jar)),
      ]);
      expect([round, off.statusCode]).toEqual([round, 200]);
      expect([round, [200, 403].includes(switched.statusCode)]).toEqual([round, true]);
      expect([round, await storedActive(browser)]).toEqual([round, null]);
    }
  });

  it('set-active racing the policy being turned on never leaves the organization active without a second factor', async () => {
    for (let round = 0; round < 6; round++) {
      const owner = await enrol(await user(t));
      const org = await createOrg(t, owner);
      const member = await join(t, owner, org.id);
      await post(t.app, '/organization/set-active', { organizationId: null }, as(member.jar));
      const [switched, on] = await Promise.all([
        post(t.app, '/organization/set-active', { organizationId: org.id }, as(member.jar)),
        requireTwoFactor(owner, org.id),
      ]);
      expect([round, on.statusCode]).toEqual([round, 200]);
      expect([round, [200, 403].includes(switched.statusCode)]).toEqual([round, true]);
      expect([round, await storedActive(member.jar)]).toEqual([round, null]);
    }
  });
});

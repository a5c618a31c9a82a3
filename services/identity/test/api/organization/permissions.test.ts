import { uniqueEmail } from '../../setup/fixtures';
import { as, createOrg, join, orgAppForThisFile, post, snapshot, type User, uniqueSlug, user } from './helpers';

const t = orgAppForThisFile();

type Role = 'owner' | 'admin' | 'member';

/** Each action run by a caller of each role in a fresh organization (spec §6 table, checks applied). */
const ACTIONS: Array<{
  name: string;
  allowed: Role[];
  refusal: string;
  run: (
    caller: User,
    ctx: { orgId: string; teamId: string; victimMemberId: string; invitationId: string },
  ) => Promise<{ statusCode: number; json(): { code?: string } }>;
}> = [
  {
    name: 'organization update',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_UPDATE_ORGANIZATION',
    run: (u, c) => post(t.app, '/organization/update', { organizationId: c.orgId, data: { name: 'New' } }, as(u.jar)),
  },
  {
    name: 'organization delete',
    allowed: ['owner'],
    refusal: 'NOT_ALLOWED_TO_DELETE_ORGANIZATION',
    run: (u, c) => post(t.app, '/organization/delete', { organizationId: c.orgId }, as(u.jar)),
  },
  {
    name: 'member delete',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_DELETE_MEMBER',
    run: (u, c) =>
      post(
        t.app,
        '/organization/remove-member',
        { memberIdOrEmail: c.victimMemberId, organizationId: c.orgId },
        as(u.jar),
      ),
  },
  {
    name: 'member update',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_UPDATE_MEMBER',
    run: (u, c) =>
      post(
        t.app,
        '/organization/update-member-role',
        { memberId: c.victimMemberId, role: 'member', organizationId: c.orgId },
        as(u.jar),
      ),
  },
  {
    name: 'invitation create',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_INVITE_USERS',
    run: (u, c) =>
      post(
        t.app,
        '/organization/invite-member',
        { email: uniqueEmail(), role: 'member', organizationId: c.orgId },
        as(u.jar),
      ),
  },
  {
    name: 'invitation cancel',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_CANCEL_INVITATION',
    run: (u, c) => post(t.app, '/organization/cancel-invitation', { invitationId: c.invitationId }, as(u.jar)),
  },
  {
    name: 'team create',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_CREATE_TEAMS',
    run: (u, c) => post(t.app, '/organization/create-team', { name: 'T', organizationId: c.orgId }, as(u.jar)),
  },
  {
    name: 'team update',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_UPDATE_TEAM',
    run: (u, c) =>
      post(
        t.app,
        '/organization/update-team',
        { teamId: c.teamId, data: { name: 'U', organizationId: c.orgId } },
        as(u.jar),
      ),
  },
  {
    name: 'team delete',
    allowed: ['owner', 'admin'],
    refusal: 'NOT_ALLOWED_TO_DELETE_TEAMS',
    run: (u, c) => post(t.app, '/organization/remove-team', { teamId: c.teamId, organizationId: c.orgId }, as(u.jar)),
  },
];

describe('permission matrix owner / admin / member (spec §6)', () => {
  for (const action of ACTIONS)
    for (const role of ['owner', 'admin', 'member'] as Role[])
      it(`${action.name} as ${role}: ${action.allowed.includes(role) ? 'allowed' : action.refusal}`, async () => {
        const owner = await user(t);
        const org = await createOrg(t, owner);
        const caller = role === 'owner' ? owner : await join(t, owner, org.id, role);
        const victim = await join(t, owner, org.id, 'member');
        const team = (
          await post(t.app, '/organization/create-team', { name: 'Spare', organizationId: org.id }, as(owner.jar))
        ).json();
        const invitation = (
          await post(
            t.app,
            '/organization/invite-member',
            { email: uniqueEmail(), role: 'member', organizationId: org.id },
            as(owner.jar),
          )
        ).json();
        const ctx = { orgId: org.id, teamId: team.id, victimMemberId: victim.memberId, invitationId: invitation.id };
        const before = await snapshot(t, org.id);
        const res = await action.run(caller, ctx);
        if (action.allowed.includes(role)) expect(res.statusCode).toBe(200);
        else {
          expect([res.statusCode, res.json().code]).toEqual([403, action.refusal]);
          expect(await snapshot(t, org.id)).toEqual(before);
        }
      });
});

describe('cross-site and mass assignment', () => {
  it('a cookie-carrying POST from an untrusted origin creates nothing', async () => {
    const u = await user(t);
    const slug = uniqueSlug();
    const res = await post(
      t.app,
      '/organization/create',
      { name: 'CSRF', slug },
      { jar: u.jar, origin: 'https://evil.example' },
    );
    expect([res.statusCode, res.json().code]).toEqual([403, 'INVALID_ORIGIN']);
    expect(await t.ctx.sql.query('SELECT 1 FROM organizations WHERE slug = $1', [slug])).toEqual([]);
  });

  it('fields a client may not set are refused: ids, status, inviter, createdAt', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const before = await snapshot(t, org.id);
    const attempts = [
      post(t.app, '/organization/create', { name: 'X', slug: uniqueSlug(), id: org.id }, as(owner.jar)),
      post(
        t.app,
        '/organization/invite-member',
        { email: uniqueEmail(), role: 'member', status: 'accepted' },
        as(owner.jar),
      ),
      post(
        t.app,
        '/organization/invite-member',
        { email: uniqueEmail(), role: 'member', inviterId: org.id },
        as(owner.jar),
      ),
      post(t.app, '/organization/update', { data: { name: 'Y', createdAt: '2000-01-01T00:00:00Z' } }, as(owner.jar)),
      post(t.app, '/organization/create-team', { name: 'Z', organizationId: org.id, id: org.id }, as(owner.jar)),
    ];
    for (const res of await Promise.all(attempts))
      expect([res.statusCode, res.json().code]).toEqual([400, 'FIELD_NOT_ALLOWED']);
    expect(await snapshot(t, org.id)).toEqual(before);
  });
});

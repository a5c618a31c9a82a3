import { createAuthClient } from 'better-auth/client';
import { organizationClient } from 'better-auth/client/plugins';
import { listenOnLoopback, startTestApp, type TestApp } from '../setup/app';
import { browserFetch } from '../setup/browser-client';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';

/**
 * The organization flows as a product frontend drives them: the published better-auth client with its
 * organizationClient plugin, over real HTTP, one cookie jar per browser.
 */
let t: TestApp;
let baseURL: string;

beforeAll(async () => {
  t = await startTestApp();
  baseURL = await listenOnLoopback(t.app);
});
afterAll(() => t?.close());

function browser() {
  const { fetchOptions } = browserFetch();
  return createAuthClient({ baseURL, fetchOptions, plugins: [organizationClient({ teams: { enabled: true } })] });
}

async function signedUp(name: string) {
  const client = browser();
  const email = uniqueEmail(name.toLowerCase());
  const { data, error } = await client.signUp.email({ name, email, password: PASSWORD });
  expect(error).toBeNull();
  await t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [data!.user.id]);
  return { client, email, userId: data!.user.id };
}

describe('better-auth organizationClient over HTTP', () => {
  it('create, invite, accept as the invitee, list members, set active, teams', async () => {
    const owner = await signedUp('Owner');
    const invitee = await signedUp('Invitee');
    const slug = `client-${Date.now()}`;

    const created = await owner.client.organization.create({ name: 'Client Org', slug });
    expect(created.error).toBeNull();
    const orgId = created.data!.id;
    expect(created.data!.members[0]).toMatchObject({ userId: owner.userId, role: 'owner' });

    const slugCheck = await owner.client.organization.checkSlug({ slug });
    expect(slugCheck.error).toMatchObject({ status: 400, code: 'SLUG_IS_TAKEN' });

    const invited = await owner.client.organization.inviteMember({ email: invitee.email, role: 'admin' });
    expect(invited.error).toBeNull();
    expect(invited.data).toMatchObject({
      email: invitee.email,
      role: 'admin',
      status: 'pending',
      organizationId: orgId,
    });

    const seen = await invitee.client.organization.getInvitation({ query: { id: invited.data!.id } });
    expect(seen.data).toMatchObject({
      organizationName: 'Client Org',
      organizationSlug: slug,
      inviterEmail: owner.email,
    });

    const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invited.data!.id });
    expect(accepted.error).toBeNull();
    expect(accepted.data!.member).toMatchObject({ userId: invitee.userId, role: 'admin' });
    const session = await invitee.client.getSession();
    expect(session.data!.session.activeOrganizationId).toBe(orgId);

    const members = await owner.client.organization.listMembers({ query: { organizationId: orgId, limit: 10 } });
    expect(members.data!.total).toBe(2);
    expect(members.data!.members.map((m) => m.user.email).sort()).toEqual([owner.email, invitee.email].sort());

    const active = await invitee.client.organization.getActiveMember();
    expect(active.data).toMatchObject({ organizationId: orgId, role: 'admin' });

    const cleared = await owner.client.organization.setActive({ organizationId: null });
    expect(cleared.error).toBeNull();
    expect((await owner.client.getSession()).data!.session.activeOrganizationId).toBeNull();
    const set = await owner.client.organization.setActive({ organizationSlug: slug });
    expect(set.data).toMatchObject({ id: orgId });
    expect((await owner.client.getSession()).data!.session.activeOrganizationId).toBe(orgId);

    const full = await owner.client.organization.getFullOrganization({ query: { organizationId: orgId } });
    expect(full.data).toMatchObject({ id: orgId, slug });
    expect(full.data!.members).toHaveLength(2);

    const team = await owner.client.organization.createTeam({ name: 'Platform' });
    expect(team.error).toBeNull();
    const added = await owner.client.organization.addTeamMember({ teamId: team.data!.id, userId: invitee.userId });
    expect(added.data).toMatchObject({ teamId: team.data!.id, userId: invitee.userId });
    const teams = await invitee.client.organization.listTeams();
    expect(teams.data!.map((x) => x.name).sort()).toEqual(['Client Org', 'Platform']);
    const renamed = await owner.client.organization.updateTeam({ teamId: team.data!.id, data: { name: 'Infra' } });
    expect(renamed.data).toMatchObject({ name: 'Infra' });
    const removedMember = await owner.client.organization.removeTeamMember({
      teamId: team.data!.id,
      userId: invitee.userId,
    });
    expect(removedMember.data).toEqual({ message: 'Team member removed successfully.' });
    const removed = await invitee.client.organization.removeTeam({ teamId: team.data!.id });
    expect(removed.data).toEqual({ message: 'Team removed successfully.' });

    const perm = await invitee.client.organization.hasPermission({ permissions: { member: ['delete'] } });
    expect(perm.data).toEqual({ error: null, success: true });

    const left = await invitee.client.organization.leave({ organizationId: orgId });
    expect(left.error).toBeNull();
    expect((await invitee.client.getSession()).data!.session.activeOrganizationId).toBeNull();

    const list = await owner.client.organization.list();
    expect(list.data!.map((o) => o.id)).toEqual([orgId]);
    const deleted = await owner.client.organization.delete({ organizationId: orgId });
    expect(deleted.data).toMatchObject({ id: orgId });
  });

  it("listUserTeams: the caller's teams across their organizations, or in one", async () => {
    const ownerA = await signedUp('OwnerA');
    const ownerB = await signedUp('OwnerB');
    const u = await signedUp('Teamed');
    const a = (await ownerA.client.organization.create({ name: 'Teams A', slug: `teams-a-${Date.now()}` })).data!;
    const b = (await ownerB.client.organization.create({ name: 'Teams B', slug: `teams-b-${Date.now()}` })).data!;
    const red = (await ownerA.client.organization.createTeam({ name: 'Red' })).data!;
    const blue = (await ownerA.client.organization.createTeam({ name: 'Blue' })).data!;
    await ownerA.client.organization.createTeam({ name: 'Green' });
    const yellow = (await ownerB.client.organization.createTeam({ name: 'Yellow' })).data!;
    const toA = await ownerA.client.organization.inviteMember({ email: u.email, role: 'member' });
    expect((await u.client.organization.acceptInvitation({ invitationId: toA.data!.id })).error).toBeNull();
    for (const team of [red, blue]) {
      const added = await ownerA.client.organization.addTeamMember({ teamId: team.id, userId: u.userId });
      expect(added.error).toBeNull();
    }
    const toB = await ownerB.client.organization.inviteMember({ email: u.email, role: 'member', teamId: yellow.id });
    expect((await u.client.organization.acceptInvitation({ invitationId: toB.data!.id })).error).toBeNull();

    const byId = (teams: Array<{ id: string }>) => [...teams].sort((x, y) => x.id.localeCompare(y.id));
    const all = await u.client.organization.listUserTeams();
    expect(all.error).toBeNull();
    expect(byId(all.data!)).toEqual(byId([red, blue, yellow]));
    const inA = await u.client.organization.listUserTeams({ query: { organizationId: a.id } });
    expect(byId(inA.data!)).toEqual(byId([red, blue]));
    const ofU = await ownerB.client.organization.listUserTeams({ query: { userId: u.userId, organizationId: b.id } });
    expect(ofU.data).toEqual([yellow]);

    const loner = await signedUp('Loner');
    expect((await loner.client.organization.listUserTeams()).data).toEqual([]);
    const anonymous = await browser().organization.listUserTeams();
    expect(anonymous.error).toMatchObject({ status: 401, code: 'NOT_AUTHENTICATED', message: 'Not authenticated' });
  });

  it('surfaces catalogue errors through the client', async () => {
    const u = await signedUp('Lonely');
    const res = await u.client.organization.acceptInvitation({ invitationId: '00000000-0000-4000-8000-000000000000' });
    expect(res.error).toMatchObject({ status: 404, code: 'INVITATION_NOT_FOUND', message: 'Invitation not found' });
  });
});

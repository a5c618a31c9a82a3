import { newId } from '../../../src/crypto/random';
import { get } from '../../setup/fixtures';
import { signUpAdmin } from '../admin/helpers';
import { as, createOrg, expectError, join, type OrgApp, post, startOrgApp, user } from '../organization/helpers';
import { eventsAbout, type StoredEvent } from './helpers';

let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({ organization: { teams: { enabled: true } } });
});
afterAll(() => t.close());

const typesIn = async (organizationId: string) => (await eventsAbout(t, organizationId)).map((e) => e.type);
const lastIn = async (organizationId: string): Promise<StoredEvent> => (await eventsAbout(t, organizationId)).at(-1)!;
const ok = async (res: { statusCode: number; body: string }) => {
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return JSON.parse(res.body);
};

describe('organization events (docs/audit.md): each change with its event, in its organization', () => {
  it('organization created, updated, deleted; members added, role updated, removed, leaving', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.created',
      actor_id: owner.userId,
      target_type: 'organization',
      target_id: org.id,
      organization_id: org.id,
      details: { slug: org.slug, ownerId: owner.userId },
    });
    await ok(
      await post(t.app, '/organization/update', { organizationId: org.id, data: { name: 'Renamed' } }, as(owner.jar)),
    );
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.updated', details: { fields: ['name'] } });

    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    await ok(
      await post(
        t.app,
        '/organization/update-member-role',
        { organizationId: org.id, memberId: member.memberId, role: 'admin' },
        as(owner.jar),
      ),
    );
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.member.role_updated',
      target_type: 'member',
      target_id: member.memberId,
      details: { userId: member.userId, role: 'admin', previousRole: 'member' },
    });
    await ok(
      await post(
        t.app,
        '/organization/remove-member',
        { organizationId: org.id, memberIdOrEmail: member.memberId },
        as(admin.jar),
      ),
    );
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.member.removed',
      actor_id: admin.userId,
      details: { userId: member.userId, left: false },
    });
    await ok(await post(t.app, '/organization/leave', { organizationId: org.id }, as(admin.jar)));
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.member.removed', details: { left: true } });
    await ok(await post(t.app, '/organization/delete', { organizationId: org.id }, as(owner.jar)));
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.deleted', actor_id: owner.userId });
    expect(await typesIn(org.id)).toEqual([
      'organization.created',
      'organization.updated',
      'organization.invitation.created',
      'organization.invitation.accepted',
      'organization.member.added',
      'organization.invitation.created',
      'organization.invitation.accepted',
      'organization.member.added',
      'organization.member.role_updated',
      'organization.member.removed',
      'organization.member.removed',
      'organization.deleted',
    ]);
  });

  it('invitations created, accepted (with the member added), rejected and canceled', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const invitee = await user(t);
    const invited = await ok(
      await post(
        t.app,
        '/organization/invite-member',
        { email: invitee.email, role: 'member', organizationId: org.id },
        as(owner.jar),
      ),
    );
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.invitation.created',
      target_type: 'invitation',
      target_id: invited.id,
      details: { email: invitee.email, role: 'member', resent: false },
    });
    await ok(await post(t.app, '/organization/reject-invitation', { invitationId: invited.id }, as(invitee.jar)));
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.invitation.rejected',
      actor_id: invitee.userId,
      target_id: invited.id,
    });
    const second = await ok(
      await post(
        t.app,
        '/organization/invite-member',
        { email: invitee.email, role: 'member', organizationId: org.id },
        as(owner.jar),
      ),
    );
    await ok(await post(t.app, '/organization/cancel-invitation', { invitationId: second.id }, as(owner.jar)));
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.invitation.canceled', target_id: second.id });
    const third = await ok(
      await post(
        t.app,
        '/organization/invite-member',
        { email: invitee.email, role: 'member', organizationId: org.id },
        as(owner.jar),
      ),
    );
    const accepted = await ok(
      await post(t.app, '/organization/accept-invitation', { invitationId: third.id }, as(invitee.jar)),
    );
    const events = (await eventsAbout(t, org.id)).slice(-2);
    expect(events.map((e) => [e.type, e.actor_id, e.target_id])).toEqual([
      ['organization.invitation.accepted', invitee.userId, third.id],
      ['organization.member.added', invitee.userId, accepted.member.id],
    ]);
  });

  it('teams created, updated, removed; team members added and removed', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    const team = await ok(
      await post(t.app, '/organization/create-team', { name: 'Blue', organizationId: org.id }, as(owner.jar)),
    );
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.team.created',
      target_type: 'team',
      target_id: team.id,
    });
    await ok(
      await post(
        t.app,
        '/organization/update-team',
        { teamId: team.id, data: { name: 'Green', organizationId: org.id } },
        as(owner.jar),
      ),
    );
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.team.updated',
      details: { name: 'Green', previousName: 'Blue' },
    });
    const body = { teamId: team.id, userId: member.userId, organizationId: org.id };
    await ok(await post(t.app, '/organization/add-team-member', body, as(owner.jar)));
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.team.member_added',
      details: { userId: member.userId },
    });
    await ok(await post(t.app, '/organization/remove-team-member', body, as(owner.jar)));
    expect(await lastIn(org.id)).toMatchObject({
      type: 'organization.team.member_removed',
      details: { userId: member.userId },
    });
    await ok(
      await post(t.app, '/organization/remove-team', { teamId: team.id, organizationId: org.id }, as(owner.jar)),
    );
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.team.removed', target_id: team.id });
  });

  it('an operator acting on an organization is recorded as the operator', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const operator = await signUpAdmin(t);
    const res = await post(
      t.app,
      '/admin/organization/create-team',
      { organizationId: org.id, name: 'Ops' },
      as(operator.jar),
    );
    expect(res.statusCode).toBe(200);
    expect(await lastIn(org.id)).toMatchObject({ type: 'organization.team.created', actor_id: operator.userId });
  });

  it("an operator's update and delete carry the request's address, agent and id, like every other operator change", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const operator = await signUpAdmin(t);
    const headers = { 'user-agent': 'ops-console-test', 'x-request-id': `req-${newId()}` };
    const call = (path: string, body: object) => post(t.app, path, body, { ...as(operator.jar), headers });
    await ok(await call('/admin/organization/update', { organizationId: org.id, data: { name: 'Renamed' } }));
    const updated = await lastIn(org.id);
    expect(updated).toMatchObject({ type: 'organization.updated', actor_id: operator.userId });
    expect(updated).toMatchObject({ user_agent: 'ops-console-test', request_id: headers['x-request-id'] });
    expect(updated.ip_address).toBeTruthy();
    await ok(await call('/admin/organization/delete', { organizationId: org.id }));
    const deleted = await lastIn(org.id);
    expect(deleted).toMatchObject({ type: 'organization.deleted', actor_id: operator.userId });
    expect(deleted).toMatchObject({ user_agent: 'ops-console-test', request_id: headers['x-request-id'] });
  });
});

describe('GET organization/list-events', () => {
  it("owners and admins read their organization's events only; members and outsiders are refused", async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    const otherOwner = await user(t);
    const other = await createOrg(t, otherOwner);
    const list = (jar: typeof owner.jar, query = '') =>
      get(t.app, `/organization/list-events?organizationId=${org.id}${query}`, { jar });

    const byOwner = await ok(await list(owner.jar));
    expect(byOwner.events.length).toBeGreaterThanOrEqual(5);
    expect(byOwner.events.every((e: { organizationId: string }) => e.organizationId === org.id)).toBe(true);
    expect(byOwner.events[0].type).toBe('organization.member.added'); // newest first
    expect(byOwner.events.at(-1).type).toBe('organization.created');
    // Actors by id only: the trail may name operators and non-members, whose addresses members do not see.
    for (const { actor } of byOwner.events) expect(Object.keys(actor).sort()).toEqual(['id', 'impersonatorId', 'type']);
    const byAdmin = await ok(await list(admin.jar, '&type=organization.member&limit=1'));
    expect(byAdmin.events.map((e: { type: string }) => e.type)).toEqual(['organization.member.added']);
    const next = await ok(await list(admin.jar, `&type=organization.member&limit=1&cursor=${byAdmin.nextCursor}`));
    expect(next.events.map((e: { type: string }) => e.type)).toEqual(['organization.member.added']);
    expect(next.events[0].id).not.toBe(byAdmin.events[0].id);

    expectError(await list(member.jar), 403, 'NOT_ALLOWED_TO_READ_ORGANIZATION_EVENTS');
    expectError(await list(otherOwner.jar), 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    expectError(
      await get(t.app, `/organization/list-events?organizationId=${newId()}`, { jar: owner.jar }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    expectError(await get(t.app, `/organization/list-events?organizationId=${org.id}`), 401, 'NOT_AUTHENTICATED');
    // the other organization's owner sees their own, never this one's
    const theirs = await ok(
      await get(t.app, `/organization/list-events?organizationId=${other.id}`, { jar: otherOwner.jar }),
    );
    expect(theirs.events.map((e: { organizationId: string }) => e.organizationId)).toEqual([other.id]);
    // the active organization is the default
    const active = await ok(await get(t.app, '/organization/list-events', { jar: otherOwner.jar }));
    expect(active.events.map((e: { organizationId: string }) => e.organizationId)).toEqual([other.id]);
  });

  it('a custom organization role may be granted audit:read', async () => {
    const app = await startOrgApp({ organization: { roles: { auditor: { audit: ['read'] } } } });
    try {
      const owner = await user(app);
      const org = await createOrg(app, owner);
      const auditor = await join(app, owner, org.id, 'auditor');
      expect(
        (await get(app.app, `/organization/list-events?organizationId=${org.id}`, { jar: auditor.jar })).statusCode,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });
});

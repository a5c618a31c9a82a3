import { rateLimitRule } from '../../../src/http/route-policy';
import { PUBLIC_URL } from '../../setup/app';
import { uniqueEmail } from '../../setup/fixtures';
import {
  as,
  createOrg,
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

describe('invite-member', () => {
  it('stores a pending invitation and mails the accept link in the invitee language', async () => {
    const owner = await user(t, { name: 'Olga Owner' });
    const org = await createOrg(t, owner);
    const invitee = await user(t, { language: 'FRA' });
    t.mails.length = 0;
    const res = await invite(owner, { email: invitee.email.toUpperCase(), role: 'admin' }, { 'accept-language': 'de' });
    expect(res.statusCode).toBe(200);
    const invitation = res.json();
    expect(invitation).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      email: invitee.email,
      role: 'admin',
      status: 'pending',
      teamId: null,
      inviterId: owner.userId,
      expiresAt: new Date(t.clock.now() + 172800 * 1000).toISOString(),
      createdAt: expect.any(String),
    });
    expect(t.mails).toEqual([
      {
        kind: 'invitation',
        to: invitee.email,
        name: invitee.name,
        language: 'FRA',
        url: `${PUBLIC_URL}/accept-invitation/${invitation.id}`,
        organizationName: org.name,
        inviterName: 'Olga Owner',
        inviterEmail: owner.email,
        role: 'admin',
      },
    ]);
  });

  it("uses the inviter request's Accept-Language for an address without an account, and the link base", async () => {
    const custom = await startOrgApp({ organization: { invitationLinkBase: 'https://app.example.test/join' } });
    try {
      const owner = await user(custom);
      await createOrg(custom, owner);
      const email = uniqueEmail('new');
      const res = await post(
        custom.app,
        '/organization/invite-member',
        { email, role: 'member' },
        {
          jar: owner.jar,
          headers: { 'accept-language': 'es-ES,en;q=0.5' },
        },
      );
      expect(custom.mails).toEqual([
        expect.objectContaining({ to: email, language: 'SPA', url: `https://app.example.test/join/${res.json().id}` }),
      ]);
    } finally {
      await custom.close();
    }
  });

  it('refuses: no invitation create, an admin inviting an owner, unknown role, already member, already invited', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const member = await join(t, owner, org.id, 'member');
    const email = uniqueEmail('target');
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(member, { email, role: 'member', organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_INVITE_USERS',
      'You are not allowed to invite users to this organization',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(admin, { email, role: 'owner', organizationId: org.id }),
      403,
      'NOT_ALLOWED_TO_INVITE_WITH_ROLE',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(owner, { email, role: 'root', organizationId: org.id }),
      400,
      'ROLE_NOT_FOUND',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(owner, { email: member.email, role: 'member', organizationId: org.id }),
      400,
      'USER_IS_ALREADY_A_MEMBER',
    );
    expect((await invite(owner, { email, role: 'member', organizationId: org.id })).statusCode).toBe(200);
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(owner, { email: email.toUpperCase(), role: 'admin', organizationId: org.id }),
      400,
      'USER_IS_ALREADY_INVITED',
    );
    const stranger = await user(t);
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(stranger, { email, role: 'member', organizationId: org.id }),
      404,
      'MEMBER_NOT_FOUND',
    );
    // An admin may invite an admin (no permission above its own).
    expect((await invite(admin, { email: uniqueEmail(), role: 'admin', organizationId: org.id })).statusCode).toBe(200);
  });

  it('resend extends the expiry of the pending invitation and mails it again', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const email = uniqueEmail('resend');
    const first = (await invite(owner, { email, role: 'member' })).json();
    t.clock.advance(3600);
    t.mails.length = 0;
    const again = await invite(owner, { email, role: 'member', resend: true });
    expect(again.json()).toMatchObject({ id: first.id, expiresAt: new Date(t.clock.now() + 172800e3).toISOString() });
    expect(t.mails).toHaveLength(1);
    const rows = await t.ctx.sql.query('SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1', [
      org.id,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('with cancelPendingInvitationsOnReInvite the old invitation is canceled and a new one made', async () => {
    const c = await startOrgApp({ organization: { cancelPendingInvitationsOnReInvite: true } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const email = uniqueEmail('reinvite');
      const first = (await post(c.app, '/organization/invite-member', { email, role: 'member' }, as(owner.jar))).json();
      const second = (await post(c.app, '/organization/invite-member', { email, role: 'admin' }, as(owner.jar))).json();
      expect(second.id).not.toBe(first.id);
      const rows = await c.ctx.sql.query(
        'SELECT id, status FROM invitations WHERE organization_id = $1 ORDER BY status',
        [org.id],
      );
      expect(rows).toEqual([
        { id: first.id, status: 'canceled' },
        { id: second.id, status: 'pending' },
      ]);
    } finally {
      await c.close();
    }
  });

  it('the invitation limit counts live pending invitations', async () => {
    const c = await startOrgApp({ organization: { invitationLimit: 1 } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      await post(c.app, '/organization/invite-member', { email: uniqueEmail(), role: 'member' }, as(owner.jar));
      await refusedWithoutChange(
        c,
        org.id,
        () => post(c.app, '/organization/invite-member', { email: uniqueEmail(), role: 'member' }, as(owner.jar)),
        403,
        'INVITATION_LIMIT_REACHED',
      );
    } finally {
      await c.close();
    }
  });

  it('two concurrent invitations of one address: one pending invitation', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const email = uniqueEmail('twice');
    const answers = await Promise.all([1, 2].map(() => invite(owner, { email, role: 'member' })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const rows = await t.ctx.sql.query("SELECT 1 FROM invitations WHERE organization_id = $1 AND status = 'pending'", [
      org.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('refuses a team of another organization', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const foreignTeam = (
      await t.ctx.sql.query('SELECT id FROM teams WHERE organization_id = $1', [(await createOrg(t, await user(t))).id])
    )[0].id;
    await refusedWithoutChange(
      t,
      org.id,
      () => invite(owner, { email: uniqueEmail(), role: 'member', teamId: foreignTeam }),
      404,
      'TEAM_NOT_FOUND',
      'Team not found',
    );
  });

  it('an expired pending invitation gives way to a new one (one pending row per address stays true)', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const email = uniqueEmail('expired');
    const first = (await invite(owner, { email, role: 'member' })).json();
    t.clock.advance(172800 + 1);
    const second = await invite(owner, { email, role: 'member' });
    expect(second.statusCode).toBe(200);
    const rows = await t.ctx.sql.query('SELECT id, status FROM invitations WHERE organization_id = $1', [org.id]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: first.id, status: 'canceled' },
        { id: second.json().id, status: 'pending' },
      ]),
    );
  });
});

describe('custom roles from the configuration (spec §6)', () => {
  it('a configured role can be invited and grants what it lists; it is capped by the inviter', async () => {
    const c = await startOrgApp({ organization: { roles: { billing: { organization: ['update'] } } } });
    try {
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const billing = await join(c, owner, org.id, 'billing');
      const update = await post(
        c.app,
        '/organization/update',
        { organizationId: org.id, data: { name: 'Paid' } },
        as(billing.jar),
      );
      expect(update.json()).toMatchObject({ name: 'Paid' });
      const denied = await post(
        c.app,
        '/organization/create-team',
        { name: 'No', organizationId: org.id },
        as(billing.jar),
      );
      expect(denied.json().code).toBe('NOT_ALLOWED_TO_CREATE_TEAMS');
      // A member (no permissions) given invitation create by no role cannot invite at all; an admin may invite billing.
      const admin = await join(c, owner, org.id, 'admin');
      const res = await post(
        c.app,
        '/organization/invite-member',
        { email: uniqueEmail(), role: 'billing' },
        as(admin.jar),
      );
      expect(res.statusCode).toBe(200);
    } finally {
      await c.close();
    }
  });
});

describe('rate limit (routes that send mail)', () => {
  it('invite-member is limited per address by default; the refused call stores and sends nothing', async () => {
    const prefix = `${process.env.TEST_REDIS_PREFIX}rl-org-${Date.now()}:`;
    const c = await startOrgApp(
      { rateLimit: { rules: { '/organization/invite-member': { windowSec: 60, max: 2 } } } },
      { RATE_LIMIT_ENABLED: 'true', REDIS_PREFIX: prefix },
    );
    try {
      expect(c.config.rateLimit.rules['/organization/invite-member']).toEqual({ windowSec: 60, max: 2 });
      const owner = await user(c);
      const org = await createOrg(c, owner);
      const send = () =>
        post(c.app, '/organization/invite-member', { email: uniqueEmail(), role: 'member' }, as(owner.jar));
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      await refusedWithoutChange(c, org.id, send, 429, 'RATE_LIMITED');
    } finally {
      await c.close();
    }
  });

  it('invite-member declares a limit of 30 per minute per address, which the default configuration keeps', async () => {
    const route = t.app.routePolicies.routes().find((r) => r.path === '/organization/invite-member');
    expect(rateLimitRule(route?.policy)).toEqual({ windowSec: 60, max: 30 });
    expect(t.config.rateLimit.rules['/organization/invite-member']).toBeUndefined();
  });
});

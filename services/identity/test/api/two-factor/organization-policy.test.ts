import { PASSWORD, sessionOf } from '../../setup/fixtures';
import {
  as,
  createOrg,
  expectError,
  get,
  join,
  orgAppForThisFile,
  post,
  type User,
  uniqueSlug,
  user,
} from '../organization/helpers';
import { codeAt, secretOf } from './helpers';

/** An organization's second-factor policy, `requireTwoFactor` (docs/two-factor.md "Policies"). */
const t = orgAppForThisFile();

async function enrol(u: User): Promise<void> {
  const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, as(u.jar))).json();
  const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secretOf(totpURI)) }, as(u.jar));
  expect(res.statusCode).toBe(200);
  t.clock.advance(30);
}

const activeOf = async (u: User) =>
  (await sessionOf(t.app, { jar: u.jar }, '?disableCookieCache=true')).session.activeOrganizationId;

describe('organization requireTwoFactor', () => {
  it('is off for a new organization, answered on the model, and set by an owner through update', async () => {
    const owner = await user(t);
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
    const owner = await user(t);
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
    const owner = await user(t);
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

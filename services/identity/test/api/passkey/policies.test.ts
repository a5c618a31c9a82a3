import type { TestApp } from '../../setup/app';
import { get, post, sessionOf, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { adminGet, adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createOrg, join, user } from '../organization/helpers';
import { enrolledUser } from '../two-factor/helpers';
import { authenticator, eventsOf, passkeysOf, register, signInWithPasskey, userWithPasskey } from './helpers';

/**
 * A passkey counts as a second factor (docs/two-factor.md "Policies"): for TWO_FACTOR_REQUIRED_FOR_ADMINS and an
 * organization's requireTwoFactor; operators see a user's passkeys and their reset removes them; the notices.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({ twoFactor: { requiredForAdmins: true } });
}, 60_000);
afterAll(() => t.close());

const app = () => t as TestApp;
const REQUIRED = [403, 'TWO_FACTOR_REQUIRED'];
const answer = (res: { statusCode: number; json(): { code?: string } }) => [res.statusCode, res.json().code];

describe('TWO_FACTOR_REQUIRED_FOR_ADMINS', () => {
  it('an admin with a passkey (and no TOTP) passes; removing the last one puts them back under the refusal', async () => {
    const admin = await signUpAdmin(app());
    expect(answer(await adminGet(app(), 'list-users?limit=1', admin.jar))).toEqual(REQUIRED);
    const device = authenticator();
    const added = await register(app(), admin.jar, device, { name: 'Key' });
    expect(added.statusCode).toBe(200);
    // the same session passes at once: its user row carries the count
    expect((await adminGet(app(), 'list-users?limit=1', admin.jar)).statusCode).toBe(200);
    // and a session made by the passkey itself
    const { res, jar } = await signInWithPasskey(app(), device);
    expect(res.statusCode).toBe(200);
    expect((await adminGet(app(), 'stats', jar)).statusCode).toBe(200);
    const removed = await post(t.app, '/passkey/delete-passkey', { id: added.json().id }, { jar: admin.jar });
    expect(removed.statusCode).toBe(200);
    expect(answer(await adminGet(app(), 'list-users?limit=1', admin.jar))).toEqual(REQUIRED);
    expect(answer(await adminGet(app(), 'list-users?limit=1', jar))).toEqual(REQUIRED);
  });
});

describe('organization requireTwoFactor', () => {
  it('a member whose second factor is a passkey may turn it on and switch to it; one without, not until they add one', async () => {
    const owner = await user(app());
    const org = await createOrg(app(), owner);
    const turnOn = () =>
      post(
        t.app,
        '/organization/update',
        { organizationId: org.id, data: { requireTwoFactor: true } },
        { jar: owner.jar },
      );
    expectError(await turnOn(), 403, 'ORGANIZATION_REQUIRES_TWO_FACTOR');
    expect((await register(app(), owner.jar, authenticator())).statusCode).toBe(200);
    expect((await turnOn()).statusCode).toBe(200);
    const member = await join({ ...app(), mails: [] }, owner, org.id);
    const switchTo = () => post(t.app, '/organization/set-active', { organizationId: org.id }, { jar: member.jar });
    expectError(await switchTo(), 403, 'ORGANIZATION_REQUIRES_TWO_FACTOR');
    expect((await register(app(), member.jar, authenticator())).statusCode).toBe(200);
    const passed = await switchTo();
    expect([passed.statusCode, passed.json().id]).toEqual([200, org.id]);
    expect((await sessionOf(t.app, { jar: member.jar }, '?disableCookieCache=true')).session.activeOrganizationId).toBe(
      org.id,
    );
  });
});

describe('the last passkey removed', () => {
  it('clears organizations requiring a second factor from the user’s sessions; one left keeps them', async () => {
    const owner = await signUp(t.app);
    const first = await register(app(), owner.jar, authenticator());
    t.clock.advance(1);
    const second = await register(app(), owner.jar, authenticator());
    const org = await createOrg(app(), { ...owner, name: 'Owner' });
    const turnedOn = await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { requireTwoFactor: true } },
      { jar: owner.jar },
    );
    expect(turnedOn.statusCode).toBe(200);
    const active = async () =>
      (await sessionOf(t.app, { jar: owner.jar }, '?disableCookieCache=true')).session.activeOrganizationId;
    expect(await active()).toBe(org.id);
    await post(t.app, '/passkey/delete-passkey', { id: first.json().id }, { jar: owner.jar });
    expect(await active()).toBe(org.id);
    const last = await post(t.app, '/passkey/delete-passkey', { id: second.json().id }, { jar: owner.jar });
    expect(last.statusCode).toBe(200);
    expect(await active()).toBeNull();
    // the browser that removed it got a cache cookie without it at once
    expect((await sessionOf(t.app, { jar: owner.jar })).session.activeOrganizationId).toBeNull();
  });
});

describe('operators', () => {
  it("see a user's passkeys: the count on every user answer, names and kinds in list-user-passkeys", async () => {
    const operator = await signUpAdmin(app());
    await register(app(), operator.jar, authenticator());
    const u = await userWithPasskey(app(), {}, authenticator({ synced: true }), 'Phone');
    t.clock.advance(1); // the test clock stands still: the second one is added a second later
    await register(app(), u.jar, authenticator());
    expect((await adminGet(app(), `get-user?id=${u.userId}`, operator.jar)).json().passkeyCount).toBe(2);
    const listed = await adminGet(
      app(),
      `list-users?searchField=email&searchValue=${encodeURIComponent(u.email)}`,
      operator.jar,
    );
    expect(listed.json().users.map((x: { passkeyCount: number }) => x.passkeyCount)).toEqual([2]);
    const passkeys = await adminGet(app(), `list-user-passkeys?userId=${u.userId}`, operator.jar);
    expect(passkeys.statusCode).toBe(200);
    expect(passkeys.json()).toEqual([
      {
        id: u.passkeyId,
        name: 'Phone',
        deviceType: 'multiDevice',
        backedUp: true,
        aaguid: '00000000-0000-0000-0000-000000000000',
        createdAt: expect.any(String),
      },
      expect.objectContaining({ name: null, deviceType: 'singleDevice', backedUp: false }),
    ]);
    expect(JSON.stringify(passkeys.json())).not.toContain(u.device.id); // never the credential or its key
    expectError(
      await adminGet(app(), 'list-user-passkeys?userId=no-such-user', operator.jar),
      404,
      'FAILED_TO_FIND_USER',
    );
    expectError(await adminGet(app(), `list-user-passkeys?userId=${u.userId}`, u.jar), 403, 'NOT_ALLOWED_TO_GET_USER');
  });

  it('the reset removes passkeys with the other factors, in one event and one notice; a passkey alone is enough to reset', async () => {
    const operator = await signUpAdmin(app());
    await register(app(), operator.jar, authenticator());
    const both = await enrolledUser(app(), { language: 'FRA' });
    const device = authenticator();
    expect((await register(app(), both.jar, device)).statusCode).toBe(200);
    const res = await adminPost(app(), 'reset-two-factor', { userId: both.userId }, operator.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ twoFactorEnabled: false, passkeyCount: 0 });
    expect(await passkeysOf(app(), both.userId)).toBe(0);
    expect((await sessionOf(t.app, { bearer: both.token })).user.passkeyCount).toBe(0);
    expect((await eventsOf(app(), both.userId, 'admin.user.two_factor_reset')).map((e) => e.details)).toEqual([
      { wasEnabled: true, passkeysRemoved: 1 },
    ]);
    const mail = await t.mailTo(both.email, (m) => m.subject.includes('réinitialisé'));
    expect(mail.text).toContain('clés d’accès');
    expectError((await signInWithPasskey(app(), device)).res, 401, 'PASSKEY_NOT_FOUND');

    const only = await userWithPasskey(app());
    const reset = await adminPost(app(), 'reset-two-factor', { userId: only.userId }, operator.jar);
    expect(reset.statusCode).toBe(200);
    expect((await eventsOf(app(), only.userId, 'admin.user.two_factor_reset')).map((e) => e.details)).toEqual([
      { wasEnabled: false, passkeysRemoved: 1 },
    ]);
    expectError(
      await adminPost(app(), 'reset-two-factor', { userId: only.userId }, operator.jar),
      400,
      'TWO_FACTOR_NOT_ENABLED',
    );
  });
});

describe('notices', () => {
  it('adding and removing a passkey mail the user, in their language, with no credential in the mail', async () => {
    const u = await userWithPasskey(app(), { language: 'GERMAN' });
    const added = await t.mailTo(u.email, (m) => m.subject === 'Ihrem Konto wurde ein Passkey hinzugefügt');
    expect(t.linkIn(added).origin).toBe(t.config.publicUrl);
    expect(added.text).not.toContain(u.device.id);
    await post(t.app, '/passkey/delete-passkey', { id: u.passkeyId }, { jar: u.jar });
    const removed = await t.mailTo(u.email, (m) => m.subject === 'Ein Passkey wurde aus Ihrem Konto entfernt');
    expect(removed.text).toContain('keine Anmeldung mehr');
    const status = await get(t.app, '/two-factor/status', { jar: u.jar });
    expect(status.json().passkeys).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailLink } from '../../e2e/world';
import { start, type World } from './harness';
import { browserSteps } from './steps';

/**
 * A new invitee under the service's default settings: an invitation needs a verified address
 * (`requireEmailVerificationOnInvitation`), and sign-up mails no verification link (`SEND_VERIFICATION_ON_SIGN_UP`
 * unset, so false). The invitation page offers the link itself; following it comes back to the invitation.
 */
let world: World;
const { newPage, checkPage, expectRefusals } = browserSteps(() => world);
const PASSWORD = 'Invited-pass-123!';
const stamp = Date.now().toString(36);

beforeAll(async () => {
  world = await start({}, [], { defaults: ['SEND_VERIFICATION_ON_SIGN_UP', 'MAIL_MAX_PER_ADDRESS_PER_HOUR'] });
});
afterAll(async () => {
  await world?.stop();
});

const VERIFY_LINK = /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/verify-email\?\S+/;

describe('an invitation accepted by a new user under the default settings', () => {
  it('invitation mail → sign up → told to check the mail → the mailed link → back on the invitation → accept', async () => {
    expect(world.env.SEND_VERIFICATION_ON_SIGN_UP).toBeUndefined();
    const config = await (await fetch(`${world.pages}/config.json`)).json();
    expect(config.verifyOnSignUp).toBe(false);

    const owner = `owner-${stamp}@invitation-e2e.test`;
    const ownerSignUp = await world.api('/sign-up/email', {
      body: { name: 'Owner', email: owner, password: PASSWORD },
    });
    expect(ownerSignUp.status).toBe(200);
    const cookie = ownerSignUp.cookie;
    const slug = `nova-${stamp}`;
    expect((await world.api('/organization/create', { body: { name: 'Nova', slug }, cookie })).status).toBe(200);
    const invitee = `invitee-${stamp}@invitation-e2e.test`;
    const invited = await world.api('/organization/invite-member', {
      body: { email: invitee, role: 'member' },
      cookie,
    });
    expect(invited.status).toBe(200);

    // The invitation mail's link, signed out: sign in or create an account.
    const link = await mailLink(world.mailSink, invitee, /http:\/\/127\.0\.0\.1:\d+\/auth\/invitation\/[\w-]+/);
    const page = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'You are invited' }).waitFor();
    // Keyboard alone: Tab to "Create an account" (after "Sign in"), Enter, and the form.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create an account');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.keyboard.type('New Member');
    await page.keyboard.press('Tab');
    await page.keyboard.type(invitee);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');

    // Signed in, back on the invitation: the address must be verified first, and the page offers the link.
    await page.waitForURL(/\/auth\/invitation\/[\w-]+$/);
    await page.getByText(`Before you answer, confirm that ${invitee} is your address.`).waitFor();
    expectRefusals('403 (Forbidden)'); // get-invitation, refused until the address is verified
    expect(await page.getByText('Email verification required').count()).toBe(0);
    // Sign-up mailed nothing (the default): the only way to a link is the page's button.
    expect(world.mailSink.messages.filter((m) => VERIFY_LINK.test(m.text) && m.to.includes(invitee))).toEqual([]);
    await checkPage(page, 'invitation-verify');
    await page.setViewportSize({ width: 320, height: 640 });
    await checkPage(page, 'invitation-verify-320');

    const send = page.getByRole('button', { name: 'Send me the link' });
    await send.focus();
    await page.keyboard.press('Enter');
    const sent = page.getByRole('heading', { name: 'Check your mailbox' });
    await sent.waitFor();
    await page.getByText(`We sent a link to ${invitee}. Open it to confirm your address`).waitFor();
    expect(await sent.evaluate((h) => h === document.activeElement)).toBe(true);
    await checkPage(page, 'invitation-link-sent-320');

    // The mailed link verifies the address and comes back to the invitation (its callback), still signed in.
    const verify = await mailLink(world.mailSink, invitee, VERIFY_LINK);
    expect(new URL(verify).searchParams.get('callbackURL')).toMatch(/^\/auth\/invitation\/[\w-]+$/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(verify);
    await page.waitForURL(/\/auth\/invitation\/[\w-]+$/);
    await page.getByText(`${owner} invites you to join Nova as member.`).waitFor();
    const [row] = await world.query('SELECT email_verified FROM users WHERE email = $1', [invitee]);
    expect(row.email_verified).toBe(true);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByText('You joined Nova.').waitFor();
    const members = await world.query(
      'SELECT m.role FROM members m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id WHERE u.email = $1 AND o.slug = $2',
      [invitee, slug],
    );
    expect(members).toEqual([{ role: 'member' }]);
    // One verification mail in all: the one the page sent (sign-up sent none).
    expect(world.mailSink.messages.filter((m) => VERIFY_LINK.test(m.text) && m.to.includes(invitee))).toHaveLength(1);
    await page.context().close();
  });
});

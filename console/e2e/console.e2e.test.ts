import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, start, type World } from './harness';

/**
 * The console against the real identity service in headless Chromium. The scenarios share one world and run
 * in order (later ones use users the earlier ones made); each checks the outcome through the API as well.
 */
/** Written by every run; git-ignored. `make screenshots` copies the ones docs/console.md shows to e2e/screenshots/. */
const SHOTS = join(import.meta.dirname, 'output');
const PASSWORD = 'User-pass-123!';
const people = {
  plain: { email: 'plain@console-e2e.test', name: 'Plain Person' },
  target: { email: 'target.user@console-e2e.test', name: 'Tara Target' },
  carol: { email: 'carol@console-e2e.test', name: 'Carol Role' },
};

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

async function signInInBrowser(p: Page, email: string, password: string) {
  await p.goto(`${world.origin}/#/login`);
  await p.locator('input[name="username"]').fill(email);
  await p.locator('input[name="password"]').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

async function openUser(email: string) {
  await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
  const search = page.getByPlaceholder('Search email or name');
  await search.fill(email);
  await page.getByText('1-1 of 1').waitFor(); // the search has applied: the row will not re-render under the click
  await page.getByRole('cell', { name: email, exact: true }).click();
  await expect.poll(() => page.url()).toContain('/show');
  await page.getByRole('button', { name: 'Set role' }).waitFor();
  await page.getByText(email, { exact: true }).first().waitFor();
}

async function openOrg(tab: 'members' | 'invitations' | 'teams') {
  await page.goto(`${world.origin}/#/organizations/${ids.globex}/show/${tab}`);
  await page.getByRole('tab', { name: 'Members' }).waitFor();
}

async function invite(email: string) {
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('invite-email').fill(email);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Invitation sent', { exact: true }).waitFor();
}

async function confirmAction(button: string) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  for (const [key, person] of Object.entries(people)) {
    const created = await world.api('/admin/create-user', {
      body: { ...person, password: PASSWORD },
      cookie: adminCookie,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[key] = created.body.user.id;
  }
  // Two organizations: one the admin owns, one of another user (the admin is not a member).
  const own = await world.api('/organization/create', {
    body: { name: 'Acme Ops', slug: 'acme-ops' },
    cookie: adminCookie,
  });
  expect(own.status, JSON.stringify(own.body)).toBe(200);
  ids.ownOrg = own.body.id;
  const plain = await world.signIn(people.plain.email, PASSWORD);
  const other = await world.api('/organization/create', {
    body: { name: 'Plain Co', slug: 'plain-co' },
    cookie: plain.cookie,
  });
  expect(other.status, JSON.stringify(other.body)).toBe(200);
  ids.otherOrg = other.body.id;
  page = await world.newPage();
});

afterEach(async (ctx) => {
  // A failing scenario leaves a picture of the page (in the ignored output folder).
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('console e2e', () => {
  it('a plain user cannot get past the sign-in screen', async () => {
    const p = await world.newPage();
    await signInInBrowser(p, people.plain.email, PASSWORD);
    await p.getByText('This account is not an administrator').waitFor();
    expect(p.url()).toContain('#/login');
    await p.context().close();
  });

  it('admin signs in and sees the users list with its total', async () => {
    await signInInBrowser(page, ADMIN.email, ADMIN.password);
    await page.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByRole('cell', { name: people.target.email }).waitFor();
    expect(await page.getByRole('cell', { name: /@console-e2e\.test$/ }).count()).toBe(4);
    await page.screenshot({ path: join(SHOTS, 'users-list.png'), fullPage: true });
  });

  it('finds a user by search', async () => {
    await page.getByPlaceholder('Search email or name').fill('tara');
    await page.getByText('1-1 of 1').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: people.carol.email }).count()).toBe(0);
    await page.getByRole('cell', { name: people.target.email }).click();
    await expect.poll(() => page.url()).toContain('/show');
    await page.getByRole('button', { name: 'Set role' }).waitFor();
    await page.getByText(people.target.name, { exact: true }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'user-show.png'), fullPage: true });
  });

  it('bans a user (their sign-in is refused with BANNED_USER), then unbans', async () => {
    await openUser(people.target.email);
    const dialog = await confirmAction('Ban');
    await dialog.getByTestId('ban-reason').fill('Spamming');
    await dialog.getByTestId('ban-expires').fill('3600');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('User banned').waitFor();
    const refused = await world.signIn(people.target.email, PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('BANNED_USER');
    await page.getByText('Spamming').waitFor();

    const unban = await confirmAction('Unban');
    await unban.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('User unbanned').waitFor();
    expect((await world.signIn(people.target.email, PASSWORD)).status).toBe(200);
  });

  it('a refused action shows the catalogue message and keeps the dialog open', async () => {
    await openUser(ADMIN.email);
    const dialog = await confirmAction('Ban');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You cannot ban yourself').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('switches to the dark theme and back', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
    await expect.poll(background).not.toBe(light);
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
    await expect.poll(background).toBe(light);
  });

  it('filters the list by role', async () => {
    await page.goto(`${world.origin}/#/users?filter=%7B%7D`);
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menu').getByText('Role', { exact: true }).click();
    await page.locator('input[name="role"]').fill('admin');
    await page.getByText('1-1 of 1').waitFor();
    await page.getByRole('cell', { name: ADMIN.email }).waitFor();
    await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
  });

  it('sets a role', async () => {
    await openUser(people.carol.email);
    const dialog = await confirmAction('Set role');
    await dialog.getByTestId('role-input').fill('user,admin');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Role set').waitFor();
    const user = await world.api(`/admin/get-user?id=${ids.carol}`, { cookie: adminCookie });
    expect(user.body.role).toBe('user,admin');
  });

  it('creates a user', async () => {
    await page.goto(`${world.origin}/#/users/create`);
    await page.locator('input[name="email"]').fill('new.hire@console-e2e.test');
    await page.locator('input[name="name"]').fill('New Hire');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.url()).toContain('/show');
    await page.getByText('new.hire@console-e2e.test', { exact: true }).first().waitFor();
    expect((await world.signIn('new.hire@console-e2e.test', PASSWORD)).status).toBe(200);
  });

  it('revokes one session, then all', async () => {
    const first = await world.signIn(people.target.email, PASSWORD);
    await world.signIn(people.target.email, PASSWORD);
    const before = await world.api('/admin/list-user-sessions', { body: { userId: ids.target }, cookie: adminCookie });
    const count = before.body.sessions.length;
    expect(count).toBeGreaterThanOrEqual(2);

    await openUser(people.target.email);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const rows = page.getByTestId('sessions').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(count);
    await rows.first().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Session revoked').waitFor();
    await expect.poll(() => rows.count()).toBe(count - 1);

    await page.getByRole('button', { name: 'Revoke all sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('sessions-empty').waitFor();
    const after = await world.api('/get-session?disableCookieCache=true', { cookie: first.cookie });
    expect(after.body).toBeNull();
  });

  it('impersonates a user and stops', async () => {
    await openUser(people.target.email);
    const dialog = await confirmAction('Impersonate');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`Impersonating ${people.target.name}`);
    await banner.getByRole('button', { name: 'Stop impersonating' }).click();
    await page.getByRole('cell', { name: people.target.email }).waitFor();
    expect(await page.getByTestId('impersonation-banner').count()).toBe(0);
  });

  it('lists organizations with member counts and shows one the admin is not a member of', async () => {
    await page.goto(`${world.origin}/#/organizations`);
    const row = page.getByRole('row', { name: /Acme Ops/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('acme-ops');
    await row.getByRole('cell', { name: '1', exact: true }).waitFor(); // memberCount: the owner
    await page
      .getByRole('row', { name: /Plain Co/ })
      .getByRole('cell', { name: 'Plain Co' })
      .click();
    await expect.poll(() => page.url()).toContain(`/organizations/${ids.otherOrg}/show`);
    await page.getByRole('tab', { name: 'Members' }).click();
    const owner = page.getByTestId(`member-${people.plain.email}`);
    await owner.waitFor();
    expect(await owner.textContent()).toContain('owner');
  });

  it('creates an organization with a chosen owner', async () => {
    await page.goto(`${world.origin}/#/organizations`);
    await page.getByRole('link', { name: 'Create', exact: true }).click();
    await page.locator('input[name="name"]').fill('Globex');
    await page.locator('input[name="slug"]').fill('globex');
    await page.getByRole('combobox', { name: 'Owner' }).fill('Carol');
    await page.getByRole('option', { name: people.carol.email }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.url()).toMatch(/organizations\/[^/]+\/show/);
    ids.globex = /organizations\/([^/]+)\/show/.exec(page.url())![1];
    const org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    expect(org.body).toMatchObject({ name: 'Globex', slug: 'globex' });
    expect(org.body.members).toEqual([expect.objectContaining({ userId: ids.carol, role: 'owner' })]);
  });

  it('invites a member, who accepts', async () => {
    await openOrg('invitations');
    await page.getByTestId('invitations-empty').waitFor();
    await invite(people.target.email);
    const row = page.getByTestId(`invitation-${people.target.email}`);
    await row.getByText('Pending').waitFor();
    // The invitee accepts with their own session (the service wants their email verified first).
    await world.query('UPDATE users SET email_verified = true WHERE id = $1', [ids.target]);
    const invitee = await world.signIn(people.target.email, PASSWORD);
    const org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const invitationId = org.body.invitations[0].id;
    const accepted = await world.api('/organization/accept-invitation', {
      body: { invitationId },
      cookie: invitee.cookie,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await page.reload();
    await row.getByText('Accepted').waitFor();
  });

  it('cancels an invitation', async () => {
    await openOrg('invitations');
    await invite(people.plain.email);
    const row = page.getByTestId(`invitation-${people.plain.email}`);
    await row.getByRole('button', { name: 'Cancel invitation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Invitation canceled').waitFor();
    await row.getByText('Canceled').waitFor();
    const org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const canceled = org.body.invitations.find((i: { email: string }) => i.email === people.plain.email);
    expect(canceled.status).toBe('canceled');
  });

  it("changes a member's role; removing the only owner is refused with the catalogue message", async () => {
    await openOrg('members');
    const row = page.getByTestId(`member-${people.target.email}`);
    await row.getByRole('button', { name: 'Change role' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('member-role-input').fill('admin');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Role changed').waitFor();
    await row.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    const org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const member = org.body.members.find((m: { userId: string }) => m.userId === ids.target);
    expect(member.role).toBe('admin');

    await page.getByTestId(`member-${people.carol.email}`).getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You cannot leave the organization as the only owner').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.screenshot({ path: join(SHOTS, 'organization-show.png'), fullPage: true });
  });

  it('manages a team: create, add a member, rename, remove the member, remove the team', async () => {
    await openOrg('teams');
    await page.getByTestId('team-Globex').waitFor(); // the default team, named after the organization
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('dialog').getByTestId('team-name').fill('Support');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team created').waitFor();

    await page.getByTestId('team-Support').getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('dialog').getByTestId('team-member-select').click();
    await page.getByRole('option', { name: new RegExp(people.target.name) }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Added to the team').waitFor();
    await page.getByTestId('team-Support').getByText(people.target.name).waitFor();

    await page.getByTestId('team-Support').getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByTestId('team-rename').fill('Care');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team renamed').waitFor();
    const team = page.getByTestId('team-Care');
    await team.waitFor();
    let org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const care = org.body.teams.find((t: { name: string }) => t.name === 'Care');
    expect(org.body.teamMembers).toContainEqual(expect.objectContaining({ teamId: care.id, userId: ids.target }));

    await team.getByLabel(`Remove ${people.target.name} from the team`).click();
    await page.getByText('Removed from the team').waitFor();
    await team.getByText('No members in this team').waitFor();

    await team.getByRole('button', { name: 'Remove team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team removed', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('team-Care').count()).toBe(0);
    org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    expect(org.body.teams.map((t: { name: string }) => t.name)).toEqual(['Globex']);
  }, 40_000);

  it("shows a user's linked accounts and organizations", async () => {
    await openUser(people.carol.email);
    await page.getByRole('tab', { name: 'Linked accounts' }).click();
    await page.getByTestId('accounts').getByRole('cell', { name: 'Email and password' }).waitFor();
    await page.getByRole('tab', { name: 'Organizations' }).click();
    const row = page.getByTestId('user-organizations').getByRole('row', { name: /Globex/ });
    await row.getByRole('cell', { name: 'owner' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'user-organizations.png'), fullPage: true });
    await row.getByRole('link', { name: 'Globex' }).click();
    await expect.poll(() => page.url()).toContain(`/organizations/${ids.globex}/show`);
  });

  it('works in a narrow window (400 px): no sideways scrolling, the menu opens', async () => {
    const p = await world.newPage({ width: 400, height: 860 });
    await signInInBrowser(p, ADMIN.email, ADMIN.password);
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    const overflow = () => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await p.goto(`${world.origin}/#/users`);
    await p.getByText(people.target.email).first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await p.goto(`${world.origin}/#/organizations/${ids.globex}/show/members`);
    await p.getByTestId(`member-${people.carol.email}`).waitFor();
    await p.screenshot({ path: join(SHOTS, 'organization-show-narrow.png'), fullPage: true });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await p.getByRole('button', { name: 'Open menu' }).click();
    await p.getByRole('menuitem', { name: 'Users' }).waitFor();
    await p.context().close();
  });

  it('the identity service serves the console at /console (its CSP lets the bundle run)', async () => {
    const p = await world.newPage();
    const res = await p.goto(`${world.apiOrigin}/console/`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await p.locator('input[name="username"]').fill(ADMIN.email);
    await p.locator('input[name="password"]').fill(ADMIN.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    await p.getByRole('menuitem', { name: 'Users' }).click();
    await p.getByRole('cell', { name: people.target.email }).waitFor();
    await p.context().close();
  });

  it('a console on another trusted origin calls the API across origins with its cookies (CORS)', async () => {
    const p = await world.newPage();
    const calls: string[] = [];
    p.on('request', (r) => {
      if (r.url().includes('/api/auth/')) calls.push(r.url());
    });
    await p.goto(`${world.crossOrigin}/#/login`);
    await p.locator('input[name="username"]').fill(ADMIN.email);
    await p.locator('input[name="password"]').fill(ADMIN.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    await p.getByRole('menuitem', { name: 'Organizations' }).click();
    await p.getByRole('row', { name: /Globex/ }).waitFor();
    expect(calls).toContain(`${world.apiOrigin}/api/auth/sign-in/email`);
    expect(calls.filter((u) => !u.startsWith(world.apiOrigin))).toEqual([]);
    await p.context().close();
  });

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});

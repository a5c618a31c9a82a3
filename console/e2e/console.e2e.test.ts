import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, start, type World } from './harness';

/**
 * The console against the real identity service in headless Chromium. The scenarios share one world and run
 * in order (later ones use users the earlier ones made); each checks the outcome through the API as well.
 */
const SHOTS = join(import.meta.dirname, 'screenshots');
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
  await page.getByRole('cell', { name: email, exact: true }).click();
  await expect.poll(() => page.url()).toContain('/show');
  await page.getByRole('button', { name: 'Set role' }).waitFor();
  await page.getByText(email, { exact: true }).first().waitFor();
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
  // A failing scenario leaves a picture of the page (not committed: see .gitignore).
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

  it('lists organizations with member counts and shows one with its members', async () => {
    await page.goto(`${world.origin}/#/organizations`);
    const row = page.getByRole('row', { name: /Acme Ops/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('acme-ops');
    await row.getByRole('cell', { name: '1', exact: true }).waitFor(); // memberCount: the owner
    await page.getByRole('row', { name: /Plain Co/ }).waitFor();
    await row.getByRole('cell', { name: 'Acme Ops' }).click();
    await expect.poll(() => page.url()).toContain(`/organizations/${ids.ownOrg}/show`);
    await page.getByRole('cell', { name: ADMIN.email }).waitFor();
    await page.getByRole('cell', { name: 'owner' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'organization-show.png'), fullPage: true });

    await page.goto(`${world.origin}/#/organizations/${ids.otherOrg}/show`);
    await page.getByText("Members are shown to the organization's own members only").waitFor();
  });

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
  });
});

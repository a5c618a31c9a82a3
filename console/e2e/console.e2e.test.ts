import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cancel, confirmAction, shownChoice } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, SHOTS, shot } from './pageChecks';
import { signInInBrowser, signInOnForm } from './signIn';

/**
 * The console against the real identity service in headless Chromium. The scenarios share one world and run
 * in order (later ones use users the earlier ones made); each checks the outcome through the API as well.
 */
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

async function invite(email: string, roles?: string[]) {
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('invite-email').fill(email);
  if (roles) await pick(dialog, 'invite-role', roles);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText(`Invitation to Globex sent to ${email} as ${roles?.join(',') ?? 'member'}`).waitFor();
}

/**
 * In a dialog's choice of several: opens its list, picks exactly `wanted` (clicking the options whose state
 * differs), and closes the list with Escape, leaving the dialog open.
 */
async function pick(dialog: Locator, testId: string, wanted: string[]) {
  await dialog.getByTestId(testId).click();
  const list = page.getByRole('listbox');
  for (const name of wanted) await list.getByRole('option', { name, exact: true }).waitFor();
  for (const option of await list.getByRole('option').all()) {
    const name = ((await option.textContent()) ?? '').trim();
    const selected = (await option.getAttribute('aria-selected')) === 'true';
    if (selected !== wanted.includes(name)) await option.click();
  }
  for (const option of await list.getByRole('option').all()) {
    const name = ((await option.textContent()) ?? '').trim();
    expect(await option.getAttribute('aria-selected'), name).toBe(String(wanted.includes(name)));
  }
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'hidden' });
}

/** The role names admin/list-roles answers: what every role picker offers. */
const listRoles = async () => (await world.api('/admin/list-roles', { cookie: adminCookie })).body;

const getUser = async (id: string) => (await world.api(`/admin/get-user?id=${id}`, { cookie: adminCookie })).body;
const getOrg = async (id: string) =>
  (await world.api(`/admin/organization/get?organizationId=${id}`, { cookie: adminCookie })).body;

const PRODUCT_NAME = 'Acme Cloud & Co';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The product's name as the hosted pages have it (HOSTED_PAGES_PRODUCT_NAME): the console's sign-in names it too.
  world = await start({ env: { HOSTED_PAGES_PRODUCT_NAME: PRODUCT_NAME } });
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
    await signInInBrowser(p, world.origin, people.plain.email, PASSWORD);
    await p.getByText('This account is not an administrator').waitFor();
    expect(p.url()).toContain('#/login');
    await p.context().close();
  });

  it('admin signs in and sees the users list with its total', async () => {
    await signInInBrowser(page, world.origin, ADMIN.email, ADMIN.password);
    await page.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByRole('cell', { name: people.target.email }).waitFor();
    expect(await page.getByRole('cell', { name: /@console-e2e\.test$/ }).count()).toBe(4);
    await shot(page, 'users-list');
  });

  it('finds a user by search', async () => {
    await page.getByPlaceholder('Search email or name').fill('tara');
    await page.getByText('1-1 of 1').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: people.carol.email }).count()).toBe(0);
    await page.getByRole('cell', { name: people.target.email }).click();
    await expect.poll(() => page.url()).toContain('/show');
    await page.getByRole('button', { name: 'Set role' }).waitFor();
    await page.getByText(people.target.name, { exact: true }).first().waitFor();
    await shot(page, 'user-show');
  });

  it('bans a user (their sign-in is refused with BANNED_USER), then unbans', async () => {
    await openUser(people.target.email);
    const dialog = await confirmAction(page, 'Ban');
    await dialog.getByTestId('ban-reason').fill('Spamming');
    await dialog.getByTestId('ban-expires').click();
    await page.getByRole('option', { name: 'In 1 hour' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.target.email} banned and signed out everywhere`).waitFor();
    await page
      .getByText(/^Banned until /)
      .first()
      .waitFor(); // the ban's expiry, shown on the page
    const refused = await world.signIn(people.target.email, PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('BANNED_USER');
    await page
      .getByText(/Spamming/)
      .first()
      .waitFor();

    const unban = await confirmAction(page, 'Unban');
    expect(await unban.textContent()).toContain(people.target.email);
    await unban.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Ban on ${people.target.email} lifted`).waitFor();
    expect((await world.signIn(people.target.email, PASSWORD)).status).toBe(200);
  });

  it('a refused action shows the catalogue message and keeps the dialog open', async () => {
    await openUser(ADMIN.email);
    const dialog = await confirmAction(page, 'Ban');
    await dialog.getByTestId('ban-expires').click();
    await page.getByRole('option', { name: 'Never (until lifted)' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You cannot ban yourself').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await cancel(dialog);
  });

  it('switches to the dark theme and back', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
    await expect.poll(background).not.toBe(light);
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
    await expect.poll(background).toBe(light);
  });

  it('filters the list by a role picked from the configured ones: the rows are exactly the users with that role', async () => {
    const roles = (await listRoles()).roles.map((r: { name: string }) => r.name);
    expect(roles).toEqual(expect.arrayContaining(['admin', 'user']));
    const listed = async (role: string) => {
      const query = `filterField=role&filterValue=${role}&filterOperator=eq&limit=100`;
      const reply = await world.api(`/admin/list-users?${query}`, { cookie: adminCookie });
      return reply.body.users.map((u: { email: string }) => u.email).sort();
    };
    const shown = async () => (await page.getByRole('cell', { name: /@console-e2e\.test$/ }).allTextContents()).sort();
    await page.goto(`${world.origin}/#/users?filter=%7B%7D`);
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menu').getByText('Role', { exact: true }).click();
    const filter = page.getByRole('combobox', { name: 'Role' });
    await filter.click();
    // The choice offers the configured roles (and react-admin's empty choice, which clears the filter).
    const offered = page.getByRole('listbox').getByRole('option');
    await offered.filter({ hasText: 'admin' }).waitFor();
    expect((await offered.allTextContents()).map((t) => t.trim()).filter(Boolean)).toEqual(roles);
    await page.getByRole('option', { name: 'admin', exact: true }).click();
    await page.getByText('1-1 of 1').waitFor();
    await page.getByRole('cell', { name: ADMIN.email }).waitFor();
    expect(await shown()).toEqual(await listed('admin'));

    await filter.click();
    await page.getByRole('option', { name: 'user', exact: true }).click();
    const users = await listed('user');
    expect(users.length).toBeGreaterThan(1);
    await expect.poll(shown).toEqual(users);
    await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
  });

  it('a lapsed ban shows as not banned (list, profile, actions); an active ban shows its expiry in the list', async () => {
    for (const [key, email, name] of [
      ['lapsed', 'lapsed@console-e2e.test', 'Lapsed Ban'],
      ['banned', 'banned@console-e2e.test', 'Banned Now'],
    ]) {
      const created = await world.api('/admin/create-user', {
        body: { email, name, password: PASSWORD },
        cookie: adminCookie,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids[key] = created.body.user.id;
    }
    // A ban whose expiry has passed: the service lifts it at the user's next sign-in; until then the row keeps it.
    await world.query(
      "UPDATE users SET banned = true, ban_reason = 'Old', ban_expires = now() - interval '1 day' WHERE id = $1",
      [ids.lapsed],
    );
    const ban = await world.api('/admin/ban-user', {
      body: { userId: ids.banned, banReason: 'Current', banExpiresIn: 86400 },
      cookie: adminCookie,
    });
    expect(ban.status, JSON.stringify(ban.body)).toBe(200);

    await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
    await page.reload(); // the list as it is now, not react-admin's copy from an earlier visit
    const status = (email: string) =>
      page
        .getByRole('row', { name: new RegExp(email) })
        .getByTestId('ban-status')
        .textContent({ timeout: 10_000 });
    expect(await status('banned@console-e2e.test')).toMatch(/^Banned until .*: Current$/);
    expect(await status('lapsed@console-e2e.test')).toMatch(/^No \(lapsed /);

    await openUser('lapsed@console-e2e.test');
    expect(await page.getByTestId('ban-status').textContent()).toMatch(/^Not banned/);
    await page.getByRole('button', { name: 'Ban', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Unban' }).count()).toBe(0);
  });

  it('sets a role by picking two of the configured roles', async () => {
    await openUser(people.carol.email);
    const dialog = await confirmAction(page, 'Set role');
    expect(await shownChoice(dialog, 'role-input')).toBe('user');
    await pick(dialog, 'role-input', ['user', 'admin']);
    expect(await shownChoice(dialog, 'role-input')).toBe('admin, user'); // in the configured order
    await dialog.getByTestId('role-input').click();
    await page.getByRole('listbox').waitFor();
    await shot(page, 'user-set-role');
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Role of ${people.carol.email} set to admin,user`).waitFor();
    expect((await getUser(ids.carol)).role).toBe('admin,user');
  });

  it("a user's dialogs open with the current values every time, Cancel discards what was typed, Enter confirms", async () => {
    await openUser(people.target.email);
    // Set role: picked, canceled; the dialog opens again with the user's role, and confirming (Enter on the closed
    // choice) keeps it.
    let dialog = await confirmAction(page, 'Set role');
    await pick(dialog, 'role-input', ['admin']);
    expect(await shownChoice(dialog, 'role-input')).toBe('admin');
    await cancel(dialog);
    dialog = await confirmAction(page, 'Set role');
    expect(await shownChoice(dialog, 'role-input')).toBe('user');
    await dialog.getByTestId('role-input').press('Enter');
    await expect.poll(async () => (await getUser(ids.target)).role).toBe('user');
    await page.getByText(`Role of ${people.target.email} set to user`).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Ban: an expiry typed then canceled is gone; the ban made next has none (Enter in a field confirms).
    dialog = await confirmAction(page, 'Ban');
    await dialog.getByTestId('ban-reason').fill('Typed then canceled');
    await dialog.getByTestId('ban-expires').click();
    await page.getByRole('option', { name: 'In 7 days' }).click();
    await cancel(dialog);
    dialog = await confirmAction(page, 'Ban');
    expect(await dialog.getByTestId('ban-reason').inputValue()).toBe('');
    expect(await shownChoice(dialog, 'ban-expires')).toBe('');
    expect(await dialog.textContent()).toContain(people.target.email); // a destructive action names its target
    await dialog.getByTestId('ban-expires').click();
    await page.getByRole('option', { name: 'Never (until lifted)' }).click();
    await dialog.getByTestId('ban-reason').fill('Spam wave');
    await dialog.getByTestId('ban-reason').press('Enter');
    await expect.poll(async () => (await getUser(ids.target)).banned).toBe(true);
    const banned = await getUser(ids.target);
    expect(banned).toMatchObject({ banReason: 'Spam wave', banExpires: null });
    await page.getByText(`${people.target.email} banned and signed out everywhere`).waitFor();

    // Unban: a dialog without fields confirms on Enter too.
    dialog = await confirmAction(page, 'Unban');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await getUser(ids.target)).banned).toBe(false);
    await page.getByText(`Ban on ${people.target.email} lifted`).waitFor();

    // Set password: what was typed before Cancel is not kept.
    dialog = await confirmAction(page, 'Set password');
    await dialog.getByTestId('new-password').fill('Typed-then-canceled-1');
    await cancel(dialog);
    dialog = await confirmAction(page, 'Set password');
    expect(await dialog.getByTestId('new-password').inputValue()).toBe('');
    await dialog.getByTestId('new-password').fill(PASSWORD);
    await dialog.getByTestId('new-password').press('Enter');
    await page.getByText(`Password of ${people.target.email} set`).waitFor();
    expect((await world.signIn(people.target.email, PASSWORD)).status).toBe(200);
  });

  it('creates a user', async () => {
    await page.goto(`${world.origin}/#/users/create`);
    await page.locator('input[name="email"]').fill('new.hire@console-e2e.test');
    await page.locator('input[name="name"]').fill('New Hire');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.url()).toContain('/show');
    await page.getByText('User new.hire@console-e2e.test created').waitFor();
    await page.getByText('new.hire@console-e2e.test', { exact: true }).first().waitFor();
    expect((await world.signIn('new.hire@console-e2e.test', PASSWORD)).status).toBe(200);
  });

  it('a taken email is refused under the Email field (no notification); the form opened again is empty', async () => {
    const fillForm = async (email: string) => {
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="name"]').fill('Second Hire');
      await page.locator('input[name="password"]').fill(PASSWORD);
    };
    await page.goto(`${world.origin}/#/users/create`);
    await fillForm('new.hire@console-e2e.test');
    await page.getByRole('button', { name: 'Save' }).click();
    const email = page.locator('input[name="email"]');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await email.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('User already exists');
    // The field takes the focus (its message is read out); no notification, not even "the form is not valid".
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    const toast = page.locator('.MuiSnackbar-root').getByText(/User already exists|The form is not valid/);
    expect(await toast.count()).toBe(0);
    expect(page.url()).toContain('/users/create');
    expect(await email.inputValue()).toBe('new.hire@console-e2e.test');
    const listed = await world.api('/admin/list-users?searchValue=new.hire&searchField=email', { cookie: adminCookie });
    expect(listed.body.total).toBe(1);

    // Left and opened again: empty fields, no message.
    await page.goto(`${world.origin}/#/users`);
    await page.goto(`${world.origin}/#/users/create`);
    await page.locator('input[name="email"]').waitFor();
    expect(await page.locator('input[name="email"]').inputValue()).toBe('');
    expect(await page.locator('input[name="email"]').getAttribute('aria-invalid')).toBe('false');
    expect(await page.getByText('User already exists').count()).toBe(0);
  });

  it('edits a user: opens with the current values every time, Cancel discards, the change reaches the API', async () => {
    const email = 'new.hire@console-e2e.test';
    await openUser(email);
    let dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('edit-name').inputValue()).toBe('New Hire');
    expect(await dialog.getByTestId('edit-image').inputValue()).toBe('');
    expect(await shownChoice(dialog, 'edit-language')).toBe('');
    expect(await shownChoice(dialog, 'edit-role')).toBe('user');
    await dialog.getByTestId('edit-name').fill('Typed Then Canceled');
    await cancel(dialog);

    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('edit-name').inputValue()).toBe('New Hire');
    await dialog.getByTestId('edit-name').fill('New Hire Renamed');
    await dialog.getByTestId('edit-image').fill('https://img.example.com/new-hire.png');
    await dialog.getByTestId('edit-language').click();
    await page.getByRole('option', { name: 'French', exact: true }).click();
    expect(await shownChoice(dialog, 'edit-language')).toBe('French');
    await shot(page, 'user-edit');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${email} updated`).waitFor();
    const id = /users\/([^/]+)\/show/.exec(page.url())![1];
    expect(await getUser(id)).toMatchObject({
      name: 'New Hire Renamed',
      image: 'https://img.example.com/new-hire.png',
      language: 'FRA',
      role: 'user',
    });
    await page.getByText('New Hire Renamed', { exact: true }).first().waitFor(); // the page shows the change

    // Reopened: the new values; emptying the image sends null, and roles picked here are set too.
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('edit-name').inputValue()).toBe('New Hire Renamed');
    expect(await dialog.getByTestId('edit-image').inputValue()).toBe('https://img.example.com/new-hire.png');
    expect(await shownChoice(dialog, 'edit-language')).toBe('French');
    await pick(dialog, 'edit-role', ['admin', 'user']);
    await dialog.getByTestId('edit-image').fill('');
    await dialog.getByTestId('edit-image').press('Enter');
    await expect.poll(async () => (await getUser(id)).image).toBeNull();
    expect(await getUser(id)).toMatchObject({ name: 'New Hire Renamed', language: 'FRA', role: 'admin,user' });

    // A name longer than the API takes: its refusal under the Name field (no notification), the dialog open with
    // what was typed; canceled and reopened, the stored name and no message.
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    dialog = await confirmAction(page, 'Edit');
    const name = dialog.getByTestId('edit-name');
    await name.fill('N'.repeat(257));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await name.getAttribute('aria-describedby');
    expect(await dialog.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^Invalid request: .*256/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('edit-name');
    expect(
      await page
        .locator('.MuiSnackbar-root')
        .getByText(/Invalid request/)
        .count(),
    ).toBe(0);
    await cancel(dialog);
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('edit-name').inputValue()).toBe('New Hire Renamed');
    expect(await dialog.getByTestId('edit-name').getAttribute('aria-invalid')).toBe('false');
    expect(await dialog.getByText(/Invalid request/).count()).toBe(0);
    await cancel(dialog);
    expect((await getUser(id)).name).toBe('New Hire Renamed');
  });

  it('picks a role with the keyboard only, in a 400 px window', async () => {
    const p = await world.newPage({ width: 400, height: 860 });
    await signInInBrowser(p, world.origin, ADMIN.email, ADMIN.password);
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor({ timeout: 10_000 });
    await p.goto(`${world.origin}/#/users/${ids.plain}/show`);
    await p.getByRole('button', { name: 'Set role' }).waitFor({ timeout: 10_000 });
    const focused = () => p.evaluate(() => (document.activeElement?.textContent ?? '').trim());
    // Tab to the button, Enter opens the dialog with the focus on the role choice.
    for (let i = 0; i < 60 && (await focused()) !== 'Set role'; i++) await p.keyboard.press('Tab');
    expect(await focused()).toBe('Set role');
    await p.keyboard.press('Enter');
    const dialog = p.getByRole('dialog');
    const choice = dialog.getByTestId('role-input');
    await expect.poll(() => choice.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await choice.textContent()).toBe('user');
    // An arrow opens the list; arrows move; Space picks (the list stays open for more); Escape closes it.
    await p.keyboard.press('ArrowDown');
    const list = p.getByRole('listbox');
    await list.getByRole('option', { name: 'admin', exact: true }).waitFor();
    for (let i = 0; i < 10 && (await focused()) !== 'admin'; i++) await p.keyboard.press('ArrowUp');
    expect(await focused()).toBe('admin');
    await p.keyboard.press(' ');
    await expect.poll(() => list.getByRole('option', { name: 'admin' }).getAttribute('aria-selected')).toBe('true');
    // The open list and the dialog stay inside the narrow window (the dialog is hidden from the accessibility tree
    // while the list is open).
    const hiddenDialog = p.getByRole('dialog', { includeHidden: true });
    for (const box of [await list.boundingBox(), await hiddenDialog.boundingBox()]) {
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(400);
    }
    await shot(p, 'user-set-role-narrow');
    await p.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    expect(await dialog.isVisible()).toBe(true); // Escape closed the list only
    await expect.poll(() => choice.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await choice.textContent()).toBe('admin, user');
    // Enter on the closed choice confirms (the notification says so before the dialog closes, and goes after a few
    // seconds: read at once); the focus goes back to Set role.
    await p.keyboard.press('Enter');
    await p.getByText(`Role of ${people.plain.email} set to admin,user`).waitFor();
    await expect.poll(focused).toBe('Set role');
    // Put it back, by keyboard again, at once (while the dialog may still be fading out): Enter opens the dialog
    // with the focus on the choice, an arrow the list; on admin, Enter unpicks it; Tab closes the list; Enter
    // confirms.
    await p.keyboard.press('Enter');
    await expect.poll(() => choice.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await choice.textContent()).toBe('admin, user'); // the role just set, not the one the page had before
    expect((await getUser(ids.plain)).role).toBe('admin,user');
    await p.keyboard.press('ArrowDown');
    await list.getByRole('option', { name: 'admin', exact: true }).waitFor();
    for (let i = 0; i < 10 && (await focused()) !== 'admin'; i++) await p.keyboard.press('ArrowUp');
    expect(await focused()).toBe('admin');
    await p.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('option', { name: 'admin' }).getAttribute('aria-selected')).toBe('false');
    await p.keyboard.press('Tab');
    await list.waitFor({ state: 'hidden' });
    await expect.poll(() => choice.evaluate((el) => el === document.activeElement)).toBe(true);
    await p.keyboard.press('Enter');
    await p.getByText(`Role of ${people.plain.email} set to user`).waitFor();
    expect((await getUser(ids.plain)).role).toBe('user');
    await p.context().close();
  });

  it('falls back to typing a role when the roles cannot be read', async () => {
    const p = await world.newPage();
    // The one injected fault: this page's admin/list-roles answers 503; the rest is the real service.
    await p.route('**/api/auth/admin/list-roles', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"UNAVAILABLE","message":"x"}' }),
    );
    await signInInBrowser(p, world.origin, ADMIN.email, ADMIN.password);
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor({ timeout: 10_000 });
    await p.goto(`${world.origin}/#/users/${ids.plain}/show`);
    await p.getByRole('button', { name: 'Set role' }).click({ timeout: 10_000 });
    const dialog = p.getByRole('dialog');
    const input = dialog.locator('input[data-testid="role-input"]');
    await expect.poll(() => input.count(), { timeout: 15_000 }).toBe(1); // a text field, once the read has failed
    expect(await input.inputValue()).toBe('user');
    await dialog.getByText('One role or a comma-separated list').waitFor();
    await input.fill('user, admin');
    await input.press('Enter');
    await p.getByText(`Role of ${people.plain.email} set to user, admin`).waitFor();
    expect((await getUser(ids.plain)).role).toBe('user,admin');
    await world.api('/admin/set-role', { body: { userId: ids.plain, role: 'user' }, cookie: adminCookie });
    // The users list's role filter is a text field too.
    await p.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%22role%22%3Atrue%7D`);
    await p.locator('input[name="role"]').fill('admin');
    await p.getByText('1-1 of 1').waitFor({ timeout: 10_000 });
    await p.getByRole('cell', { name: ADMIN.email }).waitFor();
    await p.context().close();
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
    let dialog = await confirmAction(rows.first(), 'Revoke');
    expect(await dialog.textContent()).toContain(people.target.email);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Session of ${people.target.email} revoked`).waitFor();
    await expect.poll(() => rows.count()).toBe(count - 1);

    dialog = await confirmAction(page, 'Revoke all sessions');
    expect(await dialog.textContent()).toContain(people.target.email);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Every session of ${people.target.email} revoked`).waitFor();
    await page.getByTestId('sessions-empty').waitFor();
    const after = await world.api('/get-session?disableCookieCache=true', { cookie: first.cookie });
    expect(after.body).toBeNull();
  });

  it('impersonates a user and stops', async () => {
    await openUser(people.target.email);
    const dialog = await confirmAction(page, 'Impersonate');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`Impersonating ${people.target.name}`);
    // The dashboard says the session acts as the user (no admin page), not what an admin may do.
    expect(await page.getByTestId('dashboard-intro').textContent()).toMatch(/^You are impersonating this user/);
    await banner.getByRole('button', { name: 'Stop impersonating' }).click();
    await expect.poll(() => page.url()).toContain(`/users/${ids.target}/show`); // back on the user's page
    await page.getByRole('button', { name: 'Set role' }).waitFor();
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

  it('invites with a picked role, then cancels the invitation', async () => {
    await openOrg('invitations');
    await invite(people.plain.email, ['admin']);
    const invited = (await getOrg(ids.globex)).invitations.find(
      (i: { email: string }) => i.email === people.plain.email,
    );
    expect(invited).toMatchObject({ role: 'admin', status: 'pending' });
    const row = page.getByTestId(`invitation-${people.plain.email}`);
    const dialog = await confirmAction(row, 'Cancel invitation');
    expect(await dialog.textContent()).toContain(people.plain.email);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Invitation to ${people.plain.email} canceled`).waitFor();
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
    expect(await shownChoice(dialog, 'member-role-input')).toBe('member');
    await pick(dialog, 'member-role-input', ['admin']);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Role of ${people.target.email} in Globex set to admin`).waitFor();
    await row.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    const org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const member = org.body.members.find((m: { userId: string }) => m.userId === ids.target);
    expect(member.role).toBe('admin');

    const remove = await confirmAction(page.getByTestId(`member-${people.carol.email}`), 'Remove');
    expect(await remove.textContent()).toContain(people.carol.email);
    await remove.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You cannot leave the organization as the only owner').waitFor();
    await cancel(remove);
    await shot(page, 'organization-show');
  });

  it('manages a team: create, add a member, rename, remove the member, remove the team', async () => {
    await openOrg('teams');
    await page.getByTestId('team-Globex').waitFor(); // the default team, named after the organization
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('dialog').getByTestId('team-name').fill('Support');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team Support created').waitFor();

    await page.getByTestId('team-Support').getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('dialog').getByTestId('team-member-select').click();
    await page.getByRole('option', { name: new RegExp(people.target.name) }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.target.name} added to Support`).waitFor();
    await page.getByTestId('team-Support').getByText(people.target.name).waitFor();

    await page.getByTestId('team-Support').getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByTestId('team-rename').fill('Care');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team Support renamed to Care').waitFor();
    const team = page.getByTestId('team-Care');
    await team.waitFor();
    let org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    const care = org.body.teams.find((t: { name: string }) => t.name === 'Care');
    expect(org.body.teamMembers).toContainEqual(expect.objectContaining({ teamId: care.id, userId: ids.target }));

    // Taking someone off a team asks first, naming them and the team.
    await team.getByLabel(`Remove ${people.target.name} from the team`).click();
    const confirmRemoval = page.getByRole('dialog');
    expect(await confirmRemoval.textContent()).toContain(`${people.target.name}`);
    expect(await confirmRemoval.textContent()).toContain('Care');
    await confirmRemoval.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.target.name} removed from Care`).waitFor();
    await team.getByText('No members in this team').waitFor();

    const removeTeam = await confirmAction(team, 'Remove team');
    expect(await removeTeam.textContent()).toContain('Care');
    await removeTeam.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team Care removed', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('team-Care').count()).toBe(0);
    org = await world.api(`/admin/organization/get?organizationId=${ids.globex}`, { cookie: adminCookie });
    expect(org.body.teams.map((t: { name: string }) => t.name)).toEqual(['Globex']);
  }, 40_000);

  it("an organization's dialogs open with the current values every time, and Cancel discards what was typed", async () => {
    await openOrg('members');
    // A member's role: picked, canceled; the dialog shows the member's role again, and confirming keeps it.
    const row = page.getByTestId(`member-${people.target.email}`);
    let dialog = await confirmAction(row, 'Change role');
    await pick(dialog, 'member-role-input', ['owner']);
    await cancel(dialog);
    dialog = await confirmAction(row, 'Change role');
    expect(await shownChoice(dialog, 'member-role-input')).toBe('admin');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Role of ${people.target.email} in Globex set to admin`).waitFor();
    let org = await getOrg(ids.globex);
    expect(org.members.find((m: { userId: string }) => m.userId === ids.target).role).toBe('admin');

    // Invite: the email typed before Cancel is gone.
    await page.getByRole('tab', { name: 'Invitations' }).click();
    dialog = await confirmAction(page, 'Invite');
    await dialog.getByTestId('invite-email').fill('typed@console-e2e.test');
    await pick(dialog, 'invite-role', ['admin']);
    await cancel(dialog);
    dialog = await confirmAction(page, 'Invite');
    expect(await dialog.getByTestId('invite-email').inputValue()).toBe('');
    expect(await shownChoice(dialog, 'invite-role')).toBe('member');
    await cancel(dialog);

    // A team's name: typed, canceled; Rename shows the team's name again, and Enter keeps it.
    await page.getByRole('tab', { name: 'Teams' }).click();
    const team = page.getByTestId('team-Globex');
    dialog = await confirmAction(team, 'Rename');
    await dialog.getByTestId('team-rename').fill('Typed');
    await cancel(dialog);
    dialog = await confirmAction(team, 'Rename');
    expect(await dialog.getByTestId('team-rename').inputValue()).toBe('Globex');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Team Globex renamed to Globex').waitFor();
    org = await getOrg(ids.globex);
    expect(org.teams.map((t: { name: string }) => t.name)).toEqual(['Globex']);

    // Create team: an empty name field every time.
    dialog = await confirmAction(page, 'Create team');
    await dialog.getByTestId('team-name').fill('Typed');
    await cancel(dialog);
    dialog = await confirmAction(page, 'Create team');
    expect(await dialog.getByTestId('team-name').inputValue()).toBe('');
    await cancel(dialog);
  }, 40_000);

  it("shows a user's linked accounts and organizations", async () => {
    await openUser(people.carol.email);
    await page.getByRole('tab', { name: 'Linked accounts' }).click();
    await page.getByTestId('accounts').getByRole('cell', { name: 'Email and password' }).waitFor();
    await page.getByRole('tab', { name: 'Organizations' }).click();
    const row = page.getByTestId('user-organizations').getByRole('row', { name: /Globex/ });
    await row.getByRole('cell', { name: 'owner' }).waitFor();
    await shot(page, 'user-organizations');
    await row.getByRole('link', { name: 'Globex' }).click();
    await expect.poll(() => page.url()).toContain(`/organizations/${ids.globex}/show`);
  });

  it('a window resized from wide to narrow (400 px): nothing covers the page, every button fits and none overlaps', async () => {
    const p = await world.newPage({ width: 1280, height: 860 });
    await signInInBrowser(p, world.origin, ADMIN.email, ADMIN.password);
    await p.getByText(`Signed in as ${ADMIN.name}`).waitFor({ timeout: 10_000 });
    const overflow = () => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await p.goto(`${world.origin}/#/users`);
    await p.getByText(people.target.email).first().waitFor({ timeout: 10_000 });
    await p.setViewportSize({ width: 400, height: 860 });
    await p.getByRole('button', { name: 'Open menu' }).waitFor({ timeout: 10_000 }); // the narrow layout is in place
    expect(await buttonProblems(p)).toEqual([]);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(p, 'users-list-narrow');

    await p.goto(`${world.origin}/#/users/${ids.target}/show`);
    await p.getByRole('button', { name: 'Set role' }).waitFor({ timeout: 10_000 });
    expect(await buttonProblems(p)).toEqual([]);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(p, 'user-show-narrow');

    await p.goto(`${world.origin}/#/organizations/${ids.globex}/show/members`);
    await p.getByTestId(`member-${people.carol.email}`).waitFor({ timeout: 10_000 });
    expect(await buttonProblems(p)).toEqual([]);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(p, 'organization-show-narrow');
    await p.getByRole('button', { name: 'Open menu' }).click({ timeout: 10_000 });
    await p.getByRole('menuitem', { name: 'Users' }).click({ timeout: 10_000 });
    await expect.poll(() => p.url()).toMatch(/#\/users/);
    // The drawer closes on the way (after its closing slide nothing of it stays over the list).
    await p.locator('.RaSidebar-modal').waitFor({ state: 'hidden', timeout: 10_000 });
    await p.getByRole('button', { name: 'Add filter' }).waitFor({ timeout: 10_000 });
    expect(await buttonProblems(p)).toEqual([]);
    await p.context().close();
  });

  it('has no serious or critical accessibility problems (axe-core) on the users list, a user and an organization, and with their dialogs and role lists open, wide and narrow', async () => {
    const problems: string[] = [];
    for (const width of [1280, 400]) {
      const p = await world.newPage({ width, height: 860 });
      await signInInBrowser(p, world.origin, ADMIN.email, ADMIN.password);
      await p.getByText(`Signed in as ${ADMIN.name}`).waitFor();
      const check = async (what: string) => {
        // No transition under way: a dialog or list fading in has its text at part opacity, which axe reads as low
        // contrast (endless animations, a spinner's, are not waited for).
        await p.waitForFunction(() =>
          document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
        );
        problems.push(...(await axeProblems(p)).map((problem) => `${width}px ${what}: ${problem}`));
      };
      /** Opens a dialog by its button, checks it, then with its role list open, and closes both. */
      const dialogs = async (button: Locator, choice: string, what: string) => {
        await button.click();
        const dialog = p.getByRole('dialog');
        await dialog.getByTestId(choice).waitFor();
        await check(`${what} dialog`);
        await dialog.getByTestId(choice).click();
        await p.getByRole('listbox').getByRole('option').first().waitFor();
        await check(`${what} role list`);
        await p.keyboard.press('Escape');
        await p.getByRole('listbox').waitFor({ state: 'hidden' });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
      };
      const pages: [string, () => Promise<void>, (() => Promise<void>)?][] = [
        ['#/users', () => p.getByText(people.target.email).first().waitFor()],
        [
          `#/users/${ids.target}/show`,
          () => p.getByRole('button', { name: 'Set role' }).waitFor(),
          async () => {
            await dialogs(p.getByRole('button', { name: 'Set role' }), 'role-input', 'set role');
            await dialogs(p.getByRole('button', { name: 'Edit', exact: true }), 'edit-role', 'edit');
          },
        ],
        [
          `#/organizations/${ids.globex}/show/members`,
          () => p.getByTestId(`member-${people.carol.email}`).waitFor(),
          () =>
            dialogs(
              p.getByTestId(`member-${people.target.email}`).getByRole('button', { name: 'Change role' }),
              'member-role-input',
              'member role',
            ),
        ],
      ];
      for (const [path, ready, open] of pages) {
        await p.goto(`${world.origin}/${path}`);
        await ready();
        await check(path);
        await open?.();
      }
      await p.context().close();
    }
    expect(problems).toEqual([]);
  });

  it("the sign-in screen names the product: the service's HOSTED_PAGES_PRODUCT_NAME at /console, the build's elsewhere", async () => {
    const p = await world.newPage();
    await p.goto(`${world.apiOrigin}/console/#/login`);
    await p.getByRole('heading', { level: 1, name: PRODUCT_NAME }).waitFor();
    await p.getByText('Admin console').waitFor();
    // Served on its own (vite preview here, nginx in the image), the bundle names what it was built with: the
    // harness sets no VITE_PRODUCT_NAME, so the setting's default.
    await p.goto(`${world.origin}/#/login`);
    await p.getByRole('heading', { level: 1, name: 'Identity' }).waitFor();
    expect(await p.getByText(PRODUCT_NAME).count()).toBe(0);
    await p.context().close();
  });

  it('the identity service serves the console at /console (its CSP lets the bundle run)', async () => {
    const p = await world.newPage();
    const res = await p.goto(`${world.apiOrigin}/console/`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signInOnForm(p, ADMIN.email, ADMIN.password);
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
    await signInOnForm(p, ADMIN.email, ADMIN.password);
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

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, start, type World } from './harness';
import { SHOTS } from './pageChecks';

const PASSWORD = 'User-pass-123!';
/** `banned`/`verified`: set on the user before the scenarios. */
const people = [
  { key: 'jurgen', email: 'jurgen@search-e2e.test', name: 'Jürgen Müller', banned: true, verified: true },
  { key: 'zoe', email: 'zoe@search-e2e.test', name: 'Zoë Mùller', banned: true, verified: false },
  { key: 'max', email: 'max@search-e2e.test', name: 'Max Muller', banned: false, verified: true },
  { key: 'mail', email: 'muller.mail@search-e2e.test', name: 'Only Mail', banned: true, verified: true },
  { key: 'other', email: 'other@search-e2e.test', name: 'Other Person', banned: true, verified: true },
];

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

/** The emails list-users answers for `query` (the API's own answer, as the console's list should show it). */
async function listed(query: Record<string, string>): Promise<string[]> {
  const qs = new URLSearchParams({ limit: '100', ...query });
  const reply = await world.api(`/admin/list-users?${qs}`, { cookie: adminCookie });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.users.map((u: { email: string }) => u.email).sort();
}
const shown = async () => (await page.getByRole('cell', { name: /@search-e2e\.test$/ }).allTextContents()).sort();
const emails = (keys: string[]) =>
  people
    .filter((p) => keys.includes(p.key))
    .map((p) => p.email)
    .sort();

/** Adds a Yes/No filter through *Add filter* and sets it to Yes. */
async function filterYes(label: string) {
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByRole('menu').getByText(label, { exact: true }).click();
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: 'Yes' }).click();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  for (const p of people) {
    const created = await world.api('/admin/create-user', {
      body: { email: p.email, name: p.name, password: PASSWORD },
      cookie: adminCookie,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[p.key] = created.body.user.id;
    if (p.banned) {
      const ban = await world.api('/admin/ban-user', { body: { userId: ids[p.key] }, cookie: adminCookie });
      expect(ban.status, JSON.stringify(ban.body)).toBe(200);
    }
    if (p.verified) await world.query('UPDATE users SET email_verified = true WHERE id = $1', [ids[p.key]]);
  }
  page = await world.newPage();
  await page.goto(`${world.origin}/#/login`);
  await page.getByLabel(/^Email/).fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${ADMIN.name}`).waitFor();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('users search and filters', () => {
  it('typing muller finds Müller, Mùller and Muller by name and muller in an email', async () => {
    await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
    await page.getByPlaceholder('Search email or name').fill('muller');
    const expected = emails(['jurgen', 'zoe', 'max', 'mail']);
    expect(await listed({ searchField: 'any', searchValue: 'muller' })).toEqual(expected);
    await expect.poll(shown).toEqual(expected);
    await page.getByText('1-4 of 4').waitFor();
  });

  it('Banned = Yes and Email verified = Yes apply together: only users with both, as the API lists them', async () => {
    await filterYes('Banned');
    const banned = emails(['jurgen', 'zoe', 'mail']);
    await expect.poll(shown).toEqual(banned);
    await filterYes('Email verified');
    const both = await listed({ searchField: 'any', searchValue: 'muller', banned: 'true', emailVerified: 'true' });
    expect(both).toEqual(emails(['jurgen', 'mail']));
    await expect.poll(shown).toEqual(both);
    await page.getByText('1-2 of 2').waitFor();
    // both filters stay shown, each with its value
    await page.getByRole('combobox', { name: 'Banned' }).waitFor();
    await page.getByRole('combobox', { name: 'Email verified' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'users-search-filters.png'), fullPage: true, animations: 'disabled' });

    // without the search: every banned and verified user
    await page.getByPlaceholder('Search email or name').fill('');
    const all = await listed({ banned: 'true', emailVerified: 'true' });
    expect(all).toEqual(emails(['jurgen', 'mail', 'other']));
    await expect.poll(shown).toEqual(all);

    // choosing a shown filter again removes it (and its value): the other one still applies
    await page.getByRole('button', { name: 'Add filter' }).click();
    const ticked = page.getByRole('menuitemcheckbox', { checked: true });
    await expect.poll(() => ticked.allTextContents()).toEqual([expect.stringContaining('Banned'), 'Email verified']);
    await page.screenshot({ path: join(SHOTS, 'users-filter-menu.png'), animations: 'disabled' });
    await page.getByRole('menu').getByText('Banned', { exact: true }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Banned' }).count()).toBe(0);
    const verified = await listed({ emailVerified: 'true' });
    expect(verified).toEqual(emails(['jurgen', 'max', 'mail', 'other']));
    await expect.poll(shown).toEqual(verified);
  });

  it('a link naming two filters applies both', async () => {
    const both = encodeURIComponent(JSON.stringify({ banned: true, emailVerified: false }));
    await page.goto(`${world.origin}/#/users?filter=${both}&displayedFilters=${both}`);
    const expected = await listed({ banned: 'true', emailVerified: 'false' });
    expect(expected).toEqual(emails(['zoe']));
    await expect.poll(shown).toEqual(expected);
    await page.getByRole('combobox', { name: 'Banned' }).waitFor();
    await page.getByRole('combobox', { name: 'Email verified' }).waitFor();
  });

  it('the new organization’s owner box finds a user by a name typed without accents', async () => {
    await page.goto(`${world.origin}/#/organizations/create`);
    await page.locator('input[name="name"]').fill('Search Org');
    await page.locator('input[name="slug"]').fill('search-org');
    await page.getByRole('combobox', { name: 'Owner' }).fill('zoe mull');
    await page.getByRole('option', { name: 'zoe@search-e2e.test' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.url()).toMatch(/organizations\/[^/]+\/show/);
    const id = /organizations\/([^/]+)\/show/.exec(page.url())![1];
    const org = await world.api(`/admin/organization/get?organizationId=${id}`, { cookie: adminCookie });
    expect(org.body.members).toEqual([expect.objectContaining({ userId: ids.zoe, role: 'owner' })]);
  });

  it('no page error', () => {
    expect(world.pageErrors).toEqual([]);
  });
});

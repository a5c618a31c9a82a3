import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cancel, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offScreen, SHOTS, shot } from './pageChecks';
import { signInAsAdmin } from './signIn';

const PASSWORD = 'User-pass-123!';
const people = {
  dana: { email: 'dana.owner@ops-e2e.test', name: 'Dana Owner' },
  eve: { email: 'eve.newcomer@ops-e2e.test', name: 'Eve Newcomer' },
  frank: { email: 'frank@ops-e2e.test', name: 'Frank Fresh' },
};
/** Three "labs" (the search), created in this order (the created sort), and two more the search leaves out. */
const orgs = {
  zephyr: { name: 'Zephyr Labs', slug: 'zephyr-labs' },
  alpha: { name: 'Alpha Labs', slug: 'alpha-labs' },
  mango: { name: 'Mango Labs', slug: 'mango-labs' },
  other: { name: 'Other Company', slug: 'other-company' },
  doomed: { name: 'Doomed Venture', slug: 'doomed-venture' },
};

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

const api = (path: string, body?: unknown) => world.api(path, { body, cookie: adminCookie });
const getOrg = async (id: string) => (await api(`/admin/organization/get?organizationId=${id}`)).body;

async function openOrg(key: string, tab = '') {
  await page.goto(`${world.origin}/#/organizations/${ids[key]}/show${tab ? `/${tab}` : ''}`);
  await page.getByRole('tab', { name: 'Members' }).waitFor();
}

/** The dashboard's five counts as the page shows them. */
async function shownCounts(p: Page) {
  const counts: Record<string, number> = {};
  for (const field of ['users', 'newUsers7d', 'activeSessions', 'bannedUsers', 'organizations']) {
    const text = (await p.getByTestId(`stat-${field}-value`).textContent()) ?? '';
    counts[field] = Number(text.replace(/[^\d]/g, ''));
  }
  return counts;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  for (const [key, person] of Object.entries(people)) {
    const created = await api('/admin/create-user', { ...person, password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[key] = created.body.user.id;
  }
  for (const [key, org] of Object.entries(orgs)) {
    const created = await api('/admin/organization/create', { ...org, userId: ids.dana });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[key] = created.body.id;
  }
  // One banned user, so the banned count is not a zero that any page would show.
  expect((await api('/admin/ban-user', { userId: ids.frank })).status).toBe(200);
  page = await world.newPage();
  await signInAsAdmin(page, world.origin);
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-ops-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('organizations and dashboard, as ops staff', () => {
  it('the dashboard shows the counts and daily sign-ups that admin/stats answers', async () => {
    await page.goto(`${world.origin}/#/`);
    await page.getByTestId('signups-chart').waitFor();
    // The intro says what the admin role opens, area by area of the menu.
    expect(await page.getByTestId('dashboard-intro').textContent()).toBe(
      'From the menu you may manage users, manage organizations, read the audit trail, and manage webhook endpoints.',
    );
    const stats = (await api('/admin/stats?days=30')).body;
    expect(stats.users).toBeGreaterThanOrEqual(4);
    expect(stats.bannedUsers).toBe(1);
    expect(await shownCounts(page)).toEqual({
      users: stats.users,
      newUsers7d: stats.newUsers7d,
      activeSessions: stats.activeSessions,
      bannedUsers: stats.bannedUsers,
      organizations: stats.organizations,
    });
    // The chart: one bar per day with the API's count, named as one image; the same figures as a table.
    const chart = page.getByRole('img', { name: /Sign-ups per day, last 30 days/ });
    await chart.waitFor();
    const total = stats.signUpsPerDay.reduce((n: number, d: { count: number }) => n + d.count, 0);
    expect(await chart.getAttribute('aria-labelledby')).toBeTruthy();
    await page.getByText(new RegExp(`^${total} sign-ups from `)).waitFor();
    const bars = await page
      .locator('[data-testid="signups-chart"] rect')
      .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-day'), Number(r.getAttribute('data-count'))]));
    expect(bars).toEqual(stats.signUpsPerDay.map((d: { day: string; count: number }) => [d.day, d.count]));
    await page.getByText('Show as a table').click();
    const rows = page.getByTestId('signups-table').locator('tbody tr');
    expect(await rows.count()).toBe(30);
    const today = stats.signUpsPerDay.at(-1);
    expect(await rows.last().locator('td').last().textContent()).toBe(String(today.count));
    await page.getByText('Show as a table').click();
    await shot(page, 'dashboard');
  });

  it('searches organizations by name or slug and sorts the results by name, then by creation, through the API', async () => {
    const requests: URL[] = [];
    const record = (r: { url(): string }) => {
      if (r.url().includes('/admin/list-organizations')) requests.push(new URL(r.url()));
    };
    page.on('request', record);
    await page.goto(`${world.origin}/#/organizations`);
    await page.getByRole('row', { name: new RegExp(orgs.other.name) }).waitFor();
    await page.getByPlaceholder('Search name or slug').fill('LABS');
    await page.getByText('1-3 of 3').waitFor();
    const names = () => page.locator('tbody td.column-name').allTextContents();
    // A column header's sort label (its tooltip names the direction it would sort in).
    const sortBy = (field: string) => page.locator(`thead [data-field="${field}"]`).click();
    const listed = async (query: string) =>
      (await api(`/admin/list-organizations?${query}`)).body.organizations.map((o: { name: string }) => o.name);

    await sortBy('name');
    const byNameAsc = await listed('searchValue=LABS&sortBy=name&sortDirection=asc');
    expect(byNameAsc).toEqual([orgs.alpha.name, orgs.mango.name, orgs.zephyr.name]);
    await expect.poll(names, { timeout: 10_000 }).toEqual(byNameAsc);
    await sortBy('name');
    await expect
      .poll(names, { timeout: 10_000 })
      .toEqual(await listed('searchValue=LABS&sortBy=name&sortDirection=desc'));
    await sortBy('createdAt');
    const byCreated = await listed('searchValue=LABS&sortBy=createdAt&sortDirection=asc');
    await expect.poll(names, { timeout: 10_000 }).toEqual(byCreated);
    expect(byCreated).toEqual([orgs.zephyr.name, orgs.alpha.name, orgs.mango.name]);

    // A slug's part finds it too.
    await page.getByPlaceholder('Search name or slug').fill('other-comp');
    await expect.poll(names, { timeout: 10_000 }).toEqual([orgs.other.name]);
    page.off('request', record);
    const asked = requests.map((u) => Object.fromEntries(u.searchParams));
    expect(asked).toContainEqual(
      expect.objectContaining({ searchValue: 'LABS', sortBy: 'name', sortDirection: 'desc' }),
    );
    expect(asked).toContainEqual(
      expect.objectContaining({ searchValue: 'LABS', sortBy: 'createdAt', sortDirection: 'asc' }),
    );
    await page.getByPlaceholder('Search name or slug').fill('labs');
    await expect.poll(names, { timeout: 10_000 }).toEqual(byCreated);
    await shot(page, 'organizations-list');
  });

  it('edits an organization: the dialog opens with the stored values every time, Cancel discards, bad metadata is explained', async () => {
    await openOrg('zephyr');
    let dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('org-name').inputValue()).toBe(orgs.zephyr.name);
    expect(await dialog.getByTestId('org-slug').inputValue()).toBe(orgs.zephyr.slug);
    expect(await dialog.getByTestId('org-logo').inputValue()).toBe('');
    expect(JSON.parse(await dialog.getByTestId('org-metadata').inputValue())).toEqual({});
    // Typed, then canceled: nothing is kept.
    await dialog.getByTestId('org-name').fill('Typed Then Canceled');
    await dialog.getByTestId('org-metadata').fill('{"typed": true}');
    await cancel(dialog);
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('org-name').inputValue()).toBe(orgs.zephyr.name);
    expect(JSON.parse(await dialog.getByTestId('org-metadata').inputValue())).toEqual({});

    // Metadata that is not a JSON object is explained under the field, and cannot be confirmed.
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await dialog.getByTestId('org-metadata').fill('{"plan": ');
    await dialog.getByText(/^This is not valid JSON: /).waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('org-metadata').fill('["pro"]');
    await dialog.getByText('Metadata must be a JSON object between { and }, for example {"plan": "pro"}.').waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('org-logo').fill('not an address');
    await dialog.getByText('Give an http or https address (at most 2048 characters), or leave it empty.').waitFor();

    await dialog.getByTestId('org-name').fill('Zephyr Research');
    await dialog.getByTestId('org-slug').fill('zephyr-research');
    await dialog.getByTestId('org-logo').fill('https://cdn.example/zephyr.png');
    await dialog.getByTestId('org-metadata').fill('{"plan": "pro", "seats": 12}');
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await page.getByText('Organization Zephyr Research saved').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await getOrg(ids.zephyr)).toMatchObject({
      name: 'Zephyr Research',
      slug: 'zephyr-research',
      logo: 'https://cdn.example/zephyr.png',
      metadata: { plan: 'pro', seats: 12 },
    });
    await page.getByTestId('org-metadata-shown').getByText('"seats": 12', { exact: false }).waitFor();

    // Reopened at once: the values just saved.
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('org-name').inputValue()).toBe('Zephyr Research');
    expect(await dialog.getByTestId('org-logo').inputValue()).toBe('https://cdn.example/zephyr.png');
    expect(JSON.parse(await dialog.getByTestId('org-metadata').inputValue())).toEqual({ plan: 'pro', seats: 12 });
    // A slug another organization holds: the catalogue's message under the slug field (no notification), which
    // takes the focus; the dialog stays with what was typed, and nothing changes.
    const slug = dialog.getByTestId('org-slug');
    await slug.fill(orgs.alpha.slug);
    await confirm.click();
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await slug.getAttribute('aria-describedby');
    expect(await dialog.locator(`[id="${describedBy}"]`).textContent()).toBe('Organization already exists');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('org-slug');
    expect(await page.locator('.MuiSnackbar-root').getByText('Organization already exists').count()).toBe(0);
    expect(await slug.inputValue()).toBe(orgs.alpha.slug);
    expect(await dialog.isVisible()).toBe(true);
    await shot(page, 'organization-edit');
    await cancel(dialog);
    expect((await getOrg(ids.zephyr)).slug).toBe('zephyr-research');
    // Reopened: the stored slug, and the message is gone.
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('org-slug').inputValue()).toBe('zephyr-research');
    expect(await dialog.getByTestId('org-slug').getAttribute('aria-invalid')).toBe('false');
    expect(await dialog.getByText('Organization already exists').count()).toBe(0);
    await cancel(dialog);
    await shot(page, 'organization-details');
  }, 60_000);

  it('deletes an organization once its slug is typed', async () => {
    await openOrg('doomed');
    const dialog = await confirmAction(page, 'Delete');
    expect(await dialog.textContent()).toContain(orgs.doomed.name);
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('delete-org-confirm').fill('doomed');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('delete-org-confirm').fill(orgs.doomed.name);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('delete-org-confirm').fill(orgs.doomed.slug);
    await page.keyboard.press('Enter');
    await page.getByText(`Organization ${orgs.doomed.name} deleted`).waitFor();
    await expect.poll(() => page.url()).toMatch(/#\/organizations$|#\/organizations\?/);
    // Every organization: the list keeps the last search, which is cleared.
    await page.getByPlaceholder('Search name or slug').fill('');
    await page.getByRole('row', { name: new RegExp(orgs.other.name) }).waitFor();
    expect(await page.getByRole('row', { name: new RegExp(orgs.doomed.name) }).count()).toBe(0);
    const gone = await api(`/admin/organization/get?organizationId=${ids.doomed}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
  });

  it('adds an existing user as a member (found by email, role picked), and member rows lead to the user', async () => {
    await openOrg('alpha', 'members');
    const dialog = await confirmAction(page, 'Add member');
    const picker = dialog.getByTestId('add-member-user');
    // The owner is a member already: not offered.
    await picker.fill('dana.owner');
    await page.getByText('Nothing found').waitFor();
    await picker.fill('eve.new');
    await page.getByRole('option', { name: new RegExp(people.eve.email) }).click();
    expect(await picker.inputValue()).toContain(people.eve.email);
    await dialog.getByTestId('add-member-role').click();
    const list = page.getByRole('listbox');
    await list.getByRole('option', { name: 'admin', exact: true }).click();
    await list.getByRole('option', { name: 'member', exact: true }).click(); // unpicks the default
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.eve.email} added to ${orgs.alpha.name} as admin`).waitFor();
    const row = page.getByTestId(`member-${people.eve.email}`);
    await row.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    const members = (await getOrg(ids.alpha)).members;
    expect(members.find((m: { userId: string }) => m.userId === ids.eve)).toMatchObject({ role: 'admin' });
    expect(members).toHaveLength(2);

    // Reopened: empty user, the default role again.
    const again = await confirmAction(page, 'Add member');
    expect(await again.getByTestId('add-member-user').inputValue()).toBe('');
    expect((await again.getByTestId('add-member-role').textContent())?.replace(/\u200b/g, '').trim()).toBe('member');
    await cancel(again);

    await row.getByRole('link', { name: people.eve.email }).click();
    await expect.poll(() => page.url()).toContain(`/users/${ids.eve}/show`);
    await page.getByText(people.eve.name, { exact: true }).first().waitFor();
  });

  it('taking someone off a team asks first, naming them and the team; Cancel keeps them', async () => {
    const team = (await getOrg(ids.alpha)).teams[0];
    expect(
      (
        await api('/admin/organization/add-team-member', {
          organizationId: ids.alpha,
          teamId: team.id,
          userId: ids.eve,
        })
      ).status,
    ).toBe(200);
    const inTeam = async () =>
      (await getOrg(ids.alpha)).teamMembers.some(
        (tm: { teamId: string; userId: string }) => tm.teamId === team.id && tm.userId === ids.eve,
      );
    // The member was added through the API, behind the open console's back: the page is loaded afresh, as an
    // operator opening it in a new tab would, rather than trusting when the cached record is fetched again.
    await openOrg('alpha', 'teams');
    await page.reload();
    await page.getByRole('tab', { name: 'Members' }).waitFor();
    const card = page.getByTestId(`team-${team.name}`);
    await card.getByLabel(`Remove ${people.eve.name} from the team`).click();
    let dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`Remove ${people.eve.name} from the team ${team.name}?`);
    await cancel(dialog);
    expect(await inTeam()).toBe(true);
    await card.getByText(people.eve.name).waitFor();

    await card.getByLabel(`Remove ${people.eve.name} from the team`).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.eve.name} removed from ${team.name}`).waitFor();
    expect(await inTeam()).toBe(false);
  });

  it('at 400 px the dashboard and an organization keep every button in the window, none over another, nothing off-screen', async () => {
    const p = await world.newPage({ width: 400, height: 860 });
    await signInAsAdmin(p, world.origin);
    const check = async (what: string) => {
      expect(await buttonProblems(p), what).toEqual([]);
      expect(await offScreen(p), what).toEqual({ overflow: 0, outside: [] });
    };
    await p.getByTestId('signups-chart').waitFor();
    await check('dashboard');
    await shot(p, 'dashboard-narrow');
    await p.goto(`${world.origin}/#/organizations/${ids.alpha}/show`);
    await p.getByRole('button', { name: 'Delete', exact: true }).waitFor();
    await p.getByText(orgs.alpha.slug, { exact: true }).waitFor();
    await check('organization details');
    await shot(p, 'organization-details-narrow');
    await p.goto(`${world.origin}/#/organizations/${ids.alpha}/show/members`);
    await p.getByTestId(`member-${people.eve.email}`).waitFor();
    await check('organization members');
    await p.goto(`${world.origin}/#/organizations`);
    await p.getByText(orgs.alpha.name).first().waitFor();
    await check('organizations list');
    await p.context().close();
  });

  it('has no serious or critical axe-core finding on the organizations list, an organization and the dashboard, wide and at 400 px', async () => {
    const problems: string[] = [];
    for (const width of [1280, 400]) {
      const p = await world.newPage({ width, height: 860 });
      await signInAsAdmin(p, world.origin);
      const pages: [string, () => Promise<void>][] = [
        ['#/', () => p.getByTestId('signups-chart').waitFor()],
        ['#/organizations', () => p.getByText(orgs.alpha.name).first().waitFor()],
        [`#/organizations/${ids.alpha}/show`, () => p.getByText(orgs.alpha.slug, { exact: true }).waitFor()],
        [`#/organizations/${ids.alpha}/show/members`, () => p.getByTestId(`member-${people.eve.email}`).waitFor()],
      ];
      for (const [path, ready] of pages) {
        await p.goto(`${world.origin}/${path}`);
        await ready();
        problems.push(...(await axeProblems(p)).map((problem) => `${width}px ${path}: ${problem}`));
      }
      // The edit and add-member dialogs, open.
      await p.getByRole('button', { name: 'Add member' }).click();
      await p.getByRole('dialog').getByTestId('add-member-user').waitFor();
      problems.push(...(await axeProblems(p)).map((problem) => `${width}px add member dialog: ${problem}`));
      await p.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await p.getByRole('dialog').waitFor({ state: 'hidden' });
      await p.getByRole('button', { name: 'Edit', exact: true }).click();
      await p.getByRole('dialog').getByTestId('org-metadata').waitFor();
      problems.push(...(await axeProblems(p)).map((problem) => `${width}px edit dialog: ${problem}`));
      await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});

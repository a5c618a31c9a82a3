import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { choose, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offScreen, SHOTS, shot } from './pageChecks';
import { signInAsAdmin } from './signIn';

const PASSWORD = 'User-pass-123!';
const people = {
  mallory: { email: 'mallory@audit-e2e.test', name: 'Mallory Spammer' },
  walter: { email: 'walter@audit-e2e.test', name: 'Walter Worker' },
};

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

const api = (path: string, body?: unknown) => world.api(path, { body, cookie: adminCookie });
/** Every event list-events answers for this query (all pages), newest first. */
async function apiEvents(query: Record<string, string>) {
  const all: {
    id: string;
    type: string;
    details: Record<string, unknown>;
    actor: { id: string | null; email?: string | null; name?: string | null; impersonatorEmail?: string | null };
  }[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: '200', ...(cursor ? { cursor } : {}) });
    const reply = await api(`/admin/list-events?${params}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    all.push(...reply.body.events);
    cursor = reply.body.nextCursor;
  } while (cursor);
  return all;
}
const shownIds = (p: Page, testId = 'events') =>
  p
    .getByTestId(testId)
    .locator('[data-testid="event-row"]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));

/** Waits until the Audit table shows exactly these event ids, in this order. */
async function expectShown(p: Page, expected: string[], testId = 'events') {
  await expect.poll(() => shownIds(p, testId), { timeout: 10_000 }).toEqual(expected);
}

/**
 * Where the type cells' text wraps other than after a separator: each line break is found by the characters'
 * boxes (a character whose top is below the previous one's starts a line), and the character before it must be
 * `.` or `_`. Answers the offending cells as `type: …|…`.
 */
const typeBreaks = (p: Page) =>
  p.getByTestId('event-type').evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const text = cell.textContent ?? '';
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode())
        for (let i = 0; i < (node.textContent ?? '').length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          chars.push({ ch: node.textContent![i], top: range.getBoundingClientRect().top });
        }
      const bad: string[] = [];
      for (let i = 1; i < chars.length; i++)
        if (chars[i].top > chars[i - 1].top + 2 && !/[._]/.test(chars[i - 1].ch))
          bad.push(`${text}: ${text.slice(0, i)}|${text.slice(i)}`);
      return bad;
    }),
  );

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  ids.admin = signedIn.body.user.id;
  for (const [key, person] of Object.entries(people)) {
    const created = await api('/admin/create-user', { ...person, password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[key] = created.body.user.id;
  }
  const org = await api('/admin/organization/create', { name: 'Audit Works', slug: 'audit-works', userId: ids.walter });
  expect(org.status, JSON.stringify(org.body)).toBe(200);
  ids.org = org.body.id;
  page = await world.newPage();
  await signInAsAdmin(page, world.origin);
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-audit-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('the audit trail in the console', () => {
  it('a ban made in the console shows on the Audit page filtered by the admin.user prefix, with its reason', async () => {
    await page.goto(`${world.origin}/#/users/${ids.mallory}/show`);
    const dialog = await confirmAction(page, 'Ban');
    await dialog.getByTestId('ban-reason').fill('Spamming the forum');
    // The end is picked before Confirm takes the ban.
    await choose(dialog, 'ban-expires', 'In 7 days');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${people.mallory.email} banned and signed out everywhere`).waitFor();

    const banned = (await apiEvents({ type: 'admin.user.banned', targetId: ids.mallory }))[0];
    expect(banned.details.reason).toBe('Spamming the forum');
    await page.getByRole('menuitem', { name: 'Audit' }).click();
    await page.getByTestId('events').waitFor();
    await page.getByLabel('Type or prefix').fill('admin.user');
    await page.keyboard.press('Escape');
    await expectShown(
      page,
      (await apiEvents({ type: 'admin.user' })).map((e) => e.id),
    );
    const row = page.locator(`[data-event-id="${banned.id}"]`);
    expect(await row.getAttribute('data-event-type')).toBe('admin.user.banned');
    // The actor (the admin) reads as their email, with their name, and links to their page; the target (the user)
    // links to hers.
    expect(banned.actor).toMatchObject({ id: ids.admin, email: ADMIN.email, name: ADMIN.name });
    expect(await row.getByRole('link', { name: ADMIN.email }).getAttribute('href')).toBe(`#/users/${ids.admin}/show`);
    await row.getByText(ADMIN.name).waitFor();
    expect(await row.getByText(ids.admin).count()).toBe(0);
    expect(await row.getByRole('link', { name: ids.mallory }).getAttribute('href')).toBe(`#/users/${ids.mallory}/show`);
    await row.getByRole('button', { name: 'Show details of admin.user.banned' }).click();
    // Opened, the button says so and now offers to hide them.
    const hide = row.getByRole('button', { name: 'Hide details of admin.user.banned' });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    const details = page.getByTestId('event-details');
    await details.getByText(/Spamming the forum/).waitFor();
    expect(await details.textContent()).toContain('Request id');
    await shot(page, 'audit');
  }, 60_000);

  it("the user's Activity tab keeps the ban (with its reason) after the unban, as list-events answers", async () => {
    await page.goto(`${world.origin}/#/users/${ids.mallory}/show`);
    const dialog = await confirmAction(page, 'Unban');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Ban on ${people.mallory.email} lifted`).waitFor();

    await page.getByRole('tab', { name: 'Activity' }).click();
    const asActor = await apiEvents({ actorId: ids.mallory });
    const asTarget = await apiEvents({ targetId: ids.mallory });
    const expected = [...new Map([...asActor, ...asTarget].map((e) => [e.id, e])).values()];
    expect(expected.map((e) => e.type)).toEqual(expect.arrayContaining(['admin.user.banned', 'admin.user.unbanned']));
    const shown = async () => (await shownIds(page, 'user-activity')).sort();
    await expect.poll(shown, { timeout: 10_000 }).toEqual(expected.map((e) => e.id).sort());
    const types = await page
      .getByTestId('user-activity')
      .locator('[data-testid="event-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-type')));
    // Newest first: the unban above the ban.
    expect(types.indexOf('admin.user.unbanned')).toBeLessThan(types.indexOf('admin.user.banned'));
    await page.getByRole('button', { name: 'Show details of admin.user.banned' }).click();
    await page
      .getByTestId('user-activity')
      .getByText(/Spamming the forum/)
      .waitFor();
  }, 60_000);

  it('filters combine: a type prefix and a target send both and show what list-events answers for both', async () => {
    expect((await api('/admin/set-role', { userId: ids.walter, role: 'user' })).status).toBe(200);
    await page.goto(`${world.origin}/#/events`);
    await page.getByTestId('events').waitFor();
    await page.getByLabel('Type or prefix').fill('admin.user');
    await page.keyboard.press('Escape');
    await page.getByLabel('Target id').fill(ids.walter);
    const both = (await apiEvents({ type: 'admin.user', targetId: ids.walter })).map((e) => e.id);
    expect(both.length).toBeGreaterThanOrEqual(2); // created and role set
    expect((await apiEvents({ type: 'admin.user' })).length).toBeGreaterThan(both.length);
    await expectShown(page, both);
    // A third filter (the actor, picked by email) narrows it to nothing: the admin did not act as Walter.
    await page.getByLabel('Actor by email').fill('walter@audit');
    await page.getByRole('option', { name: people.walter.email }).click();
    await page.getByTestId('events-empty').waitFor();
    expect(await apiEvents({ type: 'admin.user', targetId: ids.walter, actorId: ids.walter })).toEqual([]);
  }, 60_000);

  it('pages with the cursor: Load more brings the next page, and the last page has no Load more', async () => {
    for (let i = 0; i < 55; i++)
      expect((await api('/admin/set-role', { userId: ids.walter, role: i % 2 ? 'user,admin' : 'user' })).status).toBe(
        200,
      );
    const all = (await apiEvents({ type: 'admin.user.role_set' })).map((e) => e.id);
    expect(all.length).toBe(56);
    await page.goto(`${world.origin}/#/events`);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Type or prefix').fill('admin.user.role_set');
    await page.keyboard.press('Escape');
    await expectShown(page, all.slice(0, 50));
    await page.getByRole('button', { name: 'Load more' }).click();
    await expectShown(page, all);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  }, 60_000);

  it("an organization's Activity tab shows its events", async () => {
    expect(
      (await api('/admin/organization/update', { organizationId: ids.org, data: { name: 'Audit Works 2' } })).status,
    ).toBe(200);
    await page.goto(`${world.origin}/#/organizations/${ids.org}/show/activity`);
    const expected = (await apiEvents({ organizationId: ids.org })).map((e) => e.id);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    await expectShown(page, expected, 'organization-activity');
  });

  it('the Audit entry is in the menu for the admin and not for an impersonation session (no audit: read)', async () => {
    await page.goto(`${world.origin}/#/users/${ids.mallory}/show`);
    await page.getByRole('menuitem', { name: 'Audit' }).waitFor();
    const dialog = await confirmAction(page, 'Impersonate');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    await page.goto(`${world.origin}/#/`);
    await page.getByTestId('impersonation-banner').waitFor();
    expect(await page.getByRole('menuitem', { name: 'Audit' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Stop impersonating' }).click();
    await page.getByTestId('impersonation-banner').waitFor({ state: 'hidden' });
    await page.getByRole('menuitem', { name: 'Audit' }).waitFor();
    // What Mallory's session did while impersonated reads as Mallory, impersonated by the admin, both by email.
    const [during] = await apiEvents({ actorId: ids.mallory, type: 'admin.user.impersonation_stopped' });
    expect(during.actor).toMatchObject({ email: people.mallory.email, impersonatorEmail: ADMIN.email });
    await page.goto(`${world.origin}/#/events`);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    const row = page.locator(`[data-event-id="${during.id}"]`);
    await row.getByRole('link', { name: people.mallory.email }).waitFor();
    expect(await row.getByRole('link', { name: ADMIN.email }).getAttribute('href')).toBe(`#/users/${ids.admin}/show`);
  }, 60_000);

  it('at 400 px the Audit page keeps everything in the window and has no serious or critical axe finding, wide or narrow', async () => {
    const problems: string[] = [];
    for (const width of [1280, 400]) {
      const p = await world.newPage({ width, height: 860 });
      await signInAsAdmin(p, world.origin);
      await p.goto(`${world.origin}/#/events`);
      await p.getByTestId('events').waitFor();
      await p
        .getByRole('button', { name: /^Show details of / })
        .first()
        .click();
      await p.getByTestId('event-details').waitFor();
      // Long type names (admin.user.impersonation_started) wrap only after a dot or an underscore, never inside a word.
      const types = await p.getByTestId('event-type').evaluateAll((cells) => cells.map((cell) => cell.textContent));
      expect(types).toEqual(expect.arrayContaining(['admin.user.impersonation_started', 'admin.user.role_set']));
      expect(await typeBreaks(p)).toEqual([]);
      if (width === 400) {
        expect(await buttonProblems(p)).toEqual([]);
        expect(await offScreen(p)).toEqual({ overflow: 0, outside: [] });
        await shot(p, 'audit-narrow');
      }
      problems.push(...(await axeProblems(p)).map((problem) => `${width}px audit: ${problem}`));
      await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('the console, here as everywhere, has an icon of its own: the browser never asks the origin for /favicon.ico', async () => {
    const href = await page.locator('link[rel="icon"]').evaluate((l) => (l as HTMLLinkElement).href);
    expect(new URL(href).pathname).toMatch(/\/favicon\.ico$/);
    const icon = await page.request.get(href);
    expect(icon.status()).toBe(200);
    expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO file's header
  });

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});

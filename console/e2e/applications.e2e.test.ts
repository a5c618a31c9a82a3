import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cancel, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offScreen, SHOTS, shot } from './pageChecks';
import { signInAsAdmin } from './signIn';

/**
 * The Applications page (docs/console.md "Applications"): the registered OAuth clients, their secret shown once,
 * the redirect URIs as a list editor, rotation and deletion behind a confirmation.
 */
let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

const api = (path: string, body?: unknown) => world.api(path, { body, cookie: adminCookie });

interface Client {
  clientId: string;
  name: string;
  type: string;
  redirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  previousSecretExpiresAt: string | null;
}
async function clients(): Promise<Client[]> {
  const reply = await api('/admin/list-oauth-clients?limit=200');
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.clients;
}
/** What the database holds for a client's secrets (hashes only). */
async function hashes(clientId: string) {
  const [row] = await world.query('SELECT secret_hash, previous_secret_hash FROM oauth_clients WHERE client_id = $1', [
    clientId,
  ]);
  return row as { secret_hash: string | null; previous_secret_hash: string | null };
}
const sha256 = (secret: string) => `sha256:${createHash('sha256').update(secret).digest('base64url')}`;
const uriRows = (p: Page, list: string) => p.locator(`[data-testid="${list}-editor"] input[name$=".uri"]`);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  page = await world.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.origin });
  await signInAsAdmin(page, world.origin);
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-applications-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('the Applications page', () => {
  it('is in the menu for the admin and starts empty', async () => {
    await page.getByRole('menuitem', { name: 'Applications' }).click();
    await page.getByTestId('applications-empty').waitFor();
    expect(await clients()).toEqual([]);
  });

  it('create: a refused redirect URI shows under its row and creates nothing', async () => {
    await page.goto(`${world.origin}/#/applications/create`);
    await page.getByLabel('Name').fill('Orders portal');
    const rows = uriRows(page, 'redirectUris');
    await rows.nth(0).fill('https://orders.example.com/callback');
    await page.getByTestId('redirectUris-editor').getByRole('button', { name: 'Add URI' }).click();
    await rows.nth(1).fill('http://orders.example.com/callback');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Invalid redirect URI: uses http/).waitFor();
    expect(await rows.nth(1).getAttribute('aria-invalid')).toBe('true');
    expect(await rows.nth(0).getAttribute('aria-invalid')).not.toBe('true');
    expect(await clients()).toEqual([]);
  }, 60_000);

  it('creates a confidential application; its secret shows once with a copy button, and never again', async () => {
    const rows = uriRows(page, 'redirectUris');
    await rows.nth(1).fill('https://orders.example.com/second');
    await page.getByRole('button', { name: 'Save' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Client secret of Orders portal' });
    await secretDialog.waitFor();
    await secretDialog.getByText(/it will not be shown again/).waitFor();
    const secret = await secretDialog.getByTestId('application-secret').inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Secret copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'application-secret');
    await cancel(secretDialog, 'I have stored it');

    const [created] = await clients();
    ids.portal = created.clientId;
    expect(created).toMatchObject({
      name: 'Orders portal',
      type: 'confidential',
      redirectUris: ['https://orders.example.com/callback', 'https://orders.example.com/second'],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email'],
    });
    expect((await hashes(created.clientId)).secret_hash).toBe(sha256(secret));
    await page.waitForURL((u) => u.hash === `#/applications/${created.clientId}/show`);
    await page.getByTestId('application-redirect-uris').waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(JSON.stringify(await clients())).not.toContain(secret);
    await page.goto(`${world.origin}/#/applications`);
    await page.getByText('Orders portal').waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByTestId('application-secret').count()).toBe(0);
  }, 60_000);

  it('edit: the redirect URIs are a list editor (remove one, add one); the change is saved', async () => {
    await page.goto(`${world.origin}/#/applications/${ids.portal}/show`);
    await page.getByRole('link', { name: 'Edit' }).click();
    const rows = uriRows(page, 'redirectUris');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).inputValue()).toBe('https://orders.example.com/callback');
    await page.getByTestId('redirectUris-editor').getByRole('button', { name: 'Remove this URI' }).nth(1).click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByTestId('redirectUris-editor').getByRole('button', { name: 'Add URI' }).click();
    await rows.nth(1).fill('https://orders.example.com/third');
    await page.getByLabel('Description').fill('Staff portal');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.hash === `#/applications/${ids.portal}/show`);
    await page.getByText('https://orders.example.com/third').waitFor();
    const [saved] = await clients();
    expect(saved.redirectUris).toEqual(['https://orders.example.com/callback', 'https://orders.example.com/third']);
    await shot(page, 'application-show');
  }, 60_000);

  it('rotate asks first; Cancel then reopen changes nothing; Confirm shows the new secret once and keeps the old one for the grace', async () => {
    await page.goto(`${world.origin}/#/applications/${ids.portal}/show`);
    const before = await hashes(ids.portal);
    let dialog = await confirmAction(page, 'Rotate secret');
    await dialog.getByText(/keeps working for the grace period/).waitFor();
    await cancel(dialog);
    dialog = await confirmAction(page, 'Rotate secret');
    await dialog.getByText(/keeps working for the grace period/).waitFor();
    await cancel(dialog);
    expect(await hashes(ids.portal)).toEqual(before);

    dialog = await confirmAction(page, 'Rotate secret');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Client secret of Orders portal' });
    await secretDialog.getByText(/The previous secret keeps working until/).waitFor();
    const secret = await secretDialog.getByTestId('application-secret').inputValue();
    await page.keyboard.press('Escape');
    await secretDialog.waitFor({ state: 'hidden' });
    expect(await hashes(ids.portal)).toEqual({ secret_hash: sha256(secret), previous_secret_hash: before.secret_hash });
    expect(await page.content()).not.toContain(secret);
    expect((await clients())[0].previousSecretExpiresAt).not.toBeNull();
  }, 60_000);

  it('keyboard only: create a public application (no secret), then rotate is not offered', async () => {
    await page.goto(`${world.origin}/#/applications/create`);
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Orders mobile');
    // The type: its radio group, by arrow key.
    await page.getByRole('radio', { name: /^Confidential/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /^Public/ }).isChecked()).toBe(true);
    await page.getByTestId('application-public-pkce').waitFor();
    await uriRows(page, 'redirectUris').nth(0).focus();
    await page.keyboard.type('com.example.orders:/callback');
    // Enter in a text field submits the form.
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await clients()).some((c) => c.name === 'Orders mobile'), { timeout: 10_000 })
      .toBe(true);
    const created = (await clients()).find((c) => c.name === 'Orders mobile') as Client;
    ids.mobile = created.clientId;
    expect(created).toMatchObject({ type: 'public', redirectUris: ['com.example.orders:/callback'] });
    expect(await hashes(created.clientId)).toEqual({ secret_hash: null, previous_secret_hash: null });
    await page.waitForURL((u) => u.hash === `#/applications/${created.clientId}/show`);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rotate secret' }).count()).toBe(0);
  }, 60_000);

  it('the list filters by type and by part of the name', async () => {
    const cell = (name: string) => page.getByRole('cell', { name, exact: true });
    await page.goto(`${world.origin}/#/applications`);
    await cell('Orders mobile').waitFor();
    await page.getByPlaceholder('Name').fill('mobile');
    await expect.poll(() => cell('Orders portal').count()).toBe(0);
    await cell('Orders mobile').waitFor();
    await page.getByPlaceholder('Name').fill('');
    await cell('Orders portal').waitFor();
    // The type, through the filter button's menu.
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Type' }).click();
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Confidential (server)' }).click();
    await expect.poll(() => cell('Orders mobile').count()).toBe(0);
    await cell('Orders portal').waitFor();
  }, 60_000);

  it('delete asks first, naming the application; Cancel then reopen keeps it; Confirm deletes it', async () => {
    await page.goto(`${world.origin}/#/applications/${ids.mobile}/show`);
    let dialog = await confirmAction(page, 'Delete');
    await dialog.getByText('Delete the application Orders mobile for good?', { exact: false }).waitFor();
    await cancel(dialog);
    dialog = await confirmAction(page, 'Delete');
    await dialog.getByText('Delete the application Orders mobile for good?', { exact: false }).waitFor();
    await cancel(dialog);
    expect((await clients()).map((c) => c.clientId)).toContain(ids.mobile);
    // Keyboard: the focused button opens it, Enter in it confirms.
    await page.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash === '#/applications');
    await page.getByText('Application Orders mobile deleted').waitFor();
    expect((await clients()).map((c) => c.clientId)).toEqual([ids.portal]);
  }, 60_000);

  it('at 360 px everything stays in the window, and axe finds nothing serious or critical, wide or narrow', async () => {
    const problems: string[] = [];
    for (const width of [1280, 360]) {
      const p = await world.newPage({ width, height: 860 });
      await signInAsAdmin(p, world.origin);
      const check = async (what: string, boxes = true) => {
        if (width === 360 && boxes) {
          problems.push(...(await buttonProblems(p)).map((x) => `${width}px ${what}: ${x}`));
          const off = await offScreen(p);
          if (off.overflow > 0 || off.outside.length)
            problems.push(`${width}px ${what}: off-screen ${JSON.stringify(off)}`);
        }
        problems.push(...(await axeProblems(p)).map((x) => `${width}px ${what}: ${x}`));
      };
      await p.goto(`${world.origin}/#/applications`);
      await p.getByText('Orders portal').first().waitFor();
      await check('list');
      await shot(p, width === 1280 ? 'applications' : 'applications-narrow');
      await p.goto(`${world.origin}/#/applications/${ids.portal}/show`);
      await p.getByTestId('application-redirect-uris').waitFor();
      await check('show');
      if (width === 360) await shot(p, 'application-show-narrow');
      for (const button of ['Rotate secret', 'Delete']) {
        const dialog = await confirmAction(p, button);
        await check(`${button} dialog`, false);
        await cancel(dialog);
      }
      await p.goto(`${world.origin}/#/applications/${ids.portal}`);
      await p.getByTestId('redirectUris-editor').waitFor();
      await check('edit');
      if (width === 360) await shot(p, 'application-edit-narrow');
      await p.goto(`${world.origin}/#/applications/create`);
      await p.getByTestId('redirectUris-editor').waitFor();
      await check('create');
      await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});

import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cancel, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offScreen, SHOTS, shot } from './pageChecks';
import { signInAsAdmin } from './signIn';

/** One request the receiver got, as sent. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; data: Record<string, unknown> };
}

let world: World;
let adminCookie: string;
let page: Page;
let server: Server;
let receiverOrigin: string;
const received: Received[] = [];
const ids: Record<string, string> = {};
const secrets: Record<string, string> = {};

const api = (path: string, body?: unknown) => world.api(path, { body, cookie: adminCookie });

async function endpoints() {
  const reply = await api('/admin/list-webhook-endpoints');
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.endpoints as {
    id: string;
    url: string;
    eventTypes: string[];
    enabled: boolean;
    description: string | null;
    previousSecretExpiresAt: string | null;
  }[];
}
async function deliveries(endpointId: string) {
  const reply = await api(`/admin/list-webhook-deliveries?endpointId=${endpointId}&limit=200`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.deliveries as { id: string; eventId: string | null; webhookId: string; status: string }[];
}
/** The delivery rows the page shows, top to bottom. */
const shownRows = (p: Page) =>
  p.locator('[data-testid="delivery-row"]').evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-delivery-id'),
      eventId: r.getAttribute('data-event-id'),
      webhookId: r.getAttribute('data-webhook-id'),
      status: r.getAttribute('data-status'),
    })),
  );
const waitFor = (check: () => boolean, what: string, timeout = 20_000) =>
  expect.poll(check, { timeout, message: what }).toBe(true);
/** Verifies a received message with the standardwebhooks package; throws when the signature does not check out. */
const verify = (r: Received, secret: string) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

/** The create dialog filled in (the enabled choice left as it opens: Yes). */
async function fillEndpoint(dialog: Locator, url: string, types: string, description = '') {
  await dialog.getByTestId('webhook-url').fill(url);
  await dialog.getByTestId('webhook-event-types').fill(types);
  await dialog.getByTestId('webhook-description').fill(description);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '/', headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiverOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  world = await start();
  world.startWorker();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  page = await world.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.origin });
  await signInAsAdmin(page, world.origin);
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-webhooks-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
});

describe('the Webhooks page', () => {
  it('is in the menu for the admin and starts empty', async () => {
    await page.getByRole('menuitem', { name: 'Webhooks' }).click();
    await page.getByTestId('webhooks-empty').waitFor();
    expect(await endpoints()).toEqual([]);
  });

  it("create: a bad URL and an unknown event type show the catalogue's message in the form and create nothing; Cancel then reopen is empty", async () => {
    await page.goto(`${world.origin}/#/webhooks`);
    let dialog = await confirmAction(page, 'Create endpoint');
    await fillEndpoint(dialog, 'not a url', 'admin.user.');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Invalid webhook URL: is not a URL').waitFor();
    expect(await dialog.getByTestId('webhook-url').getAttribute('aria-invalid')).toBe('true');
    await fillEndpoint(dialog, 'ftp://127.0.0.1/x', 'admin.user.');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Invalid webhook URL: must be an http or https URL').waitFor();
    await fillEndpoint(dialog, `${receiverOrigin}/bad`, 'admin.user., no.such.type');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText(/^Unknown webhook event type: names no event type/).waitFor();
    expect(await dialog.getByTestId('webhook-event-types').getAttribute('aria-invalid')).toBe('true');
    expect(await endpoints()).toEqual([]);
    // No notification: the message is in the form, where the input is.
    expect(await page.locator('.RaNotification-error, .MuiSnackbar-root').count()).toBe(0);
    await cancel(dialog);

    dialog = await confirmAction(page, 'Create endpoint');
    expect(await dialog.getByTestId('webhook-url').inputValue()).toBe('');
    expect(await dialog.getByTestId('webhook-event-types').inputValue()).toBe('');
    expect(await dialog.getByTestId('webhook-description').inputValue()).toBe('');
    expect(await dialog.getByTestId('webhook-enabled').textContent()).toBe('Yes');
    expect(await dialog.getByText(/Invalid webhook URL|Unknown webhook event type/).count()).toBe(0);
    // Confirm waits for the URL and the types.
    expect(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true);
    await cancel(dialog);
    expect(await endpoints()).toEqual([]);
  }, 60_000);

  it('creates an endpoint; its secret shows once with a copy button, and never again', async () => {
    await page.goto(`${world.origin}/#/webhooks`);
    const dialog = await confirmAction(page, 'Create endpoint');
    await fillEndpoint(dialog, `${receiverOrigin}/hook`, 'admin.user.', 'E2E receiver');
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    const secretDialog = page.getByRole('dialog', { name: `Signing secret of ${receiverOrigin}/hook` });
    await secretDialog.waitFor();
    await secretDialog
      .getByText('Copy this secret now and store it with the receiver: it will not be shown again.')
      .waitFor();
    const secret = await secretDialog.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    secrets.first = secret;
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Secret copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'webhook-secret');
    await cancel(secretDialog, 'I have stored it');

    // The endpoint's page opens; the API has it as typed, and never answers the secret again.
    const [created] = await endpoints();
    ids.first = created.id;
    expect(created).toMatchObject({
      url: `${receiverOrigin}/hook`,
      eventTypes: ['admin.user.'],
      enabled: true,
      description: 'E2E receiver',
    });
    await page.waitForURL((u) => u.hash === `#/webhooks/${created.id}/show`);
    await page.getByTestId('delivery-log-empty').waitFor();
    expect(JSON.stringify(await endpoints())).not.toContain(secret);
    expect(await page.content()).not.toContain(secret);
    await page.goto(`${world.origin}/#/webhooks`);
    await page.getByText(`${receiverOrigin}/hook`).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.goto(`${world.origin}/#/webhooks/${created.id}/show`);
    await page.getByTestId('delivery-log-empty').waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
  }, 60_000);

  it('sends a test event: the attempt shows in the log, and the receiver got it signed with the secret', async () => {
    await page.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
    await page.getByTestId('delivery-log-empty').waitFor();
    // Cancel sends nothing.
    await cancel(await confirmAction(page, 'Send a test event'));
    const dialog = await confirmAction(page, 'Send a test event');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Test event queued for ${receiverOrigin}/hook`).waitFor();

    // The log asks again by itself until the worker's attempt shows.
    await expect.poll(() => shownRows(page), { timeout: 20_000 }).toHaveLength(1);
    const [row] = await shownRows(page);
    expect(row).toMatchObject({ status: 'succeeded', eventId: '' });
    expect((await deliveries(ids.first)).map((d) => d.id)).toEqual([row.id]);
    const got = received.filter((r) => r.json.type === 'webhook.test');
    expect(got).toHaveLength(1);
    expect(got[0].path).toBe('/hook');
    expect(got[0].headers['webhook-id']).toBe(row.webhookId);
    expect(verify(got[0], secrets.first)).toMatchObject({ type: 'webhook.test' });
    // The row: time, type, status, attempt, response code; the duration in a wide window. A test has no Redeliver.
    const shownRow = page.locator(`[data-delivery-id="${row.id}"]`);
    const text = await shownRow.textContent();
    expect(text).toContain('webhook.test');
    expect(text).toContain('Succeeded');
    expect(text).toContain('204');
    expect(text).toMatch(/\d+ ms/);
    expect(await shownRow.getByRole('button', { name: /^Redeliver/ }).count()).toBe(0);
  }, 60_000);

  it('an event the endpoint wants is delivered; Redeliver sends it again under the same id and a second row shows', async () => {
    const user = await api('/admin/create-user', {
      email: 'hooked@webhooks-e2e.test',
      password: 'User-pass-123!',
      name: 'Hooked',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const about = () =>
      received.filter(
        (r) => r.json.type === 'admin.user.created' && (r.json.data.target as { id: string })?.id === user.body.user.id,
      );
    await waitFor(() => about().length === 1, 'the admin.user.created message');
    const eventId = about()[0].json.data.id as string;
    expect(verify(about()[0], secrets.first)).toMatchObject({ type: 'admin.user.created' });

    await page.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
    // The page was open already: Refresh reads the log again.
    await page.getByRole('button', { name: 'Refresh the log', exact: true }).click();
    await expect
      .poll(async () => (await shownRows(page)).filter((r) => r.eventId === eventId).length, { timeout: 10_000 })
      .toBe(1);
    const redeliver = page.getByRole('button', { name: 'Redeliver admin.user.created (attempt 1)' });
    // Cancel sends nothing.
    await redeliver.click();
    let dialog = page.getByRole('dialog');
    await dialog.getByText(/under the same message id/).waitFor();
    await cancel(dialog);
    await redeliver.click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`admin.user.created queued again for ${receiverOrigin}/hook`).waitFor();

    await expect
      .poll(async () => (await shownRows(page)).filter((r) => r.eventId === eventId).length, { timeout: 20_000 })
      .toBe(2);
    const rows = (await shownRows(page)).filter((r) => r.eventId === eventId);
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    expect(rows[0].webhookId).toBe(rows[1].webhookId);
    expect(about()).toHaveLength(2);
    expect(about()[1].headers['webhook-id']).toBe(about()[0].headers['webhook-id']);
    verify(about()[1], secrets.first);
    // Newest first, as the API answers.
    expect((await shownRows(page)).map((r) => r.id)).toEqual((await deliveries(ids.first)).map((d) => d.id));
    await shot(page, 'webhook-show');
  }, 60_000);

  it('rotate asks first (the old secret keeps working); Cancel changes nothing; then the new secret shows once and both sign', async () => {
    await page.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
    let dialog = await confirmAction(page, 'Rotate secret');
    await dialog.getByText(/current secret keeps working alongside the new one for the overlap period/).waitFor();
    await cancel(dialog);
    expect((await endpoints())[0].previousSecretExpiresAt).toBeNull();

    dialog = await confirmAction(page, 'Rotate secret');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const secretDialog = page.getByRole('dialog', { name: `Signing secret of ${receiverOrigin}/hook` });
    await secretDialog.getByText(/will not be shown again/).waitFor();
    await secretDialog.getByText(/The previous secret keeps working until/).waitFor();
    const secret = await secretDialog.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(secrets.first);
    secrets.second = secret;
    // Escape closes it too; it is gone for good.
    await page.keyboard.press('Escape');
    await secretDialog.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);
    expect((await endpoints())[0].previousSecretExpiresAt).not.toBeNull();

    const before = received.length;
    dialog = await confirmAction(page, 'Send a test event');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await waitFor(() => received.length > before, 'the test message after the rotation');
    const message = received[received.length - 1];
    expect(message.json.type).toBe('webhook.test');
    verify(message, secrets.second);
    verify(message, secrets.first);
    expect(() => verify(message, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toThrow();
  }, 60_000);

  it("edit: Cancel then reopen shows the stored values; the API's refusals show in the form; a change is saved", async () => {
    await page.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
    let dialog = await confirmAction(page, 'Edit');
    await dialog.getByTestId('webhook-description').fill('Typed then canceled');
    await dialog.getByTestId('webhook-url').fill('ftp://nope');
    await cancel(dialog);
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('webhook-url').inputValue()).toBe(`${receiverOrigin}/hook`);
    expect(await dialog.getByTestId('webhook-event-types').inputValue()).toBe('admin.user.');
    expect(await dialog.getByTestId('webhook-description').inputValue()).toBe('E2E receiver');
    // Nothing changed: the API's own answer, in the form.
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').getByText('No data to update').waitFor();
    await dialog.getByTestId('webhook-url').fill('http://user:pw@127.0.0.1/x');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Invalid webhook URL: must not carry credentials').waitFor();
    await dialog.getByTestId('webhook-url').fill(`${receiverOrigin}/hook`);
    await dialog.getByTestId('webhook-event-types').fill('admin.user., webhooks.');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText(/^Unknown webhook event type/).waitFor();
    expect((await endpoints())[0]).toMatchObject({ description: 'E2E receiver', eventTypes: ['admin.user.'] });
    await cancel(dialog);

    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByText(/Unknown webhook event type|No data to update/).count()).toBe(0);
    await dialog.getByTestId('webhook-event-types').fill('admin.user., webhook.');
    await dialog.getByTestId('webhook-description').fill('Ops receiver');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await endpoints())[0]).toMatchObject({
      description: 'Ops receiver',
      eventTypes: ['admin.user.', 'webhook.'],
    });
    await page.getByText('admin.user., webhook.').waitFor();
    dialog = await confirmAction(page, 'Edit');
    expect(await dialog.getByTestId('webhook-description').inputValue()).toBe('Ops receiver');
    await cancel(dialog);
  }, 60_000);

  it('disable and enable ask first and change the endpoint (checked through the API)', async () => {
    await page.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
    let dialog = await confirmAction(page, 'Disable');
    await cancel(dialog);
    expect((await endpoints())[0].enabled).toBe(true);
    dialog = await confirmAction(page, 'Disable');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-testid="webhook-state"][data-state="disabled"]').waitFor();
    expect((await endpoints())[0].enabled).toBe(false);
    dialog = await confirmAction(page, 'Enable');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-testid="webhook-state"][data-state="enabled"]').waitFor();
    expect((await endpoints())[0].enabled).toBe(true);
  }, 60_000);

  it('keyboard only: create an endpoint, close its secret, and send it a test event', async () => {
    await page.goto(`${world.origin}/#/webhooks`);
    await page.getByText(`${receiverOrigin}/hook`).first().waitFor();
    await page.getByRole('button', { name: 'Create endpoint' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The URL field has the focus; Tab moves on; Enter in a field confirms.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focused).toBe('webhook-url');
    await page.keyboard.type(`${receiverOrigin}/keys`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('webhook-event-types');
    await page.keyboard.type('user.signed_in');
    await page.keyboard.press('Enter');
    const secretDialog = page.getByRole('dialog', { name: `Signing secret of ${receiverOrigin}/keys` });
    await secretDialog.waitFor();
    secrets.keys = await secretDialog.getByTestId('webhook-secret').inputValue();
    // "I have stored it" has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('I have stored it');
    await page.keyboard.press('Enter');
    await secretDialog.waitFor({ state: 'hidden' });
    const created = (await endpoints()).find((e) => e.url === `${receiverOrigin}/keys`);
    expect(created).toMatchObject({ eventTypes: ['user.signed_in'], enabled: true, description: null });
    ids.keys = created?.id as string;
    await page.waitForURL((u) => u.hash === `#/webhooks/${ids.keys}/show`);
    await page.getByTestId('delivery-log-empty').waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // A dialog without fields: Enter anywhere in it confirms.
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => shownRows(page), { timeout: 20_000 }).toHaveLength(1);
    const got = received.filter((r) => r.path === '/keys');
    expect(got).toHaveLength(1);
    verify(got[0], secrets.keys);
  }, 60_000);

  it('delete asks first, naming the URL; Cancel keeps it; Confirm deletes it and returns to the list', async () => {
    await page.goto(`${world.origin}/#/webhooks/${ids.keys}/show`);
    let dialog = await confirmAction(page, 'Delete');
    await dialog.getByText(`Delete the endpoint ${receiverOrigin}/keys for good?`, { exact: false }).waitFor();
    await cancel(dialog);
    expect((await endpoints()).map((e) => e.id)).toContain(ids.keys);
    dialog = await confirmAction(page, 'Delete');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((u) => u.hash === '#/webhooks');
    await page.getByText(`Endpoint ${receiverOrigin}/keys deleted`).waitFor();
    expect((await endpoints()).map((e) => e.id)).toEqual([ids.first]);
    // The list reads the endpoints again on its way in.
    await expect.poll(() => page.getByText(`${receiverOrigin}/keys`, { exact: true }).count()).toBe(0);
    await page.getByText(`${receiverOrigin}/hook`, { exact: true }).waitFor();
  }, 60_000);

  it('the Webhooks entry is not there for an impersonation session (no webhook permission)', async () => {
    const user = await api('/admin/create-user', {
      email: 'plain@webhooks-e2e.test',
      password: 'User-pass-123!',
      name: 'Plain',
    });
    expect(user.status).toBe(200);
    const p = await world.newPage();
    await signInAsAdmin(p, world.origin);
    await p.getByRole('menuitem', { name: 'Webhooks' }).waitFor();
    await p.goto(`${world.origin}/#/users/${user.body.user.id}/show`);
    const dialog = await confirmAction(p, 'Impersonate');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await p.getByTestId('impersonation-banner').waitFor();
    await p.goto(`${world.origin}/#/`);
    await p.getByTestId('impersonation-banner').waitFor();
    expect(await p.getByRole('menuitem', { name: 'Webhooks' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Stop impersonating' }).click();
    await p.getByTestId('impersonation-banner').waitFor({ state: 'hidden' });
    await p.context().close();
  }, 60_000);

  it('at 400 px everything stays in the window, and axe finds nothing serious or critical, wide or narrow', async () => {
    const problems: string[] = [];
    for (const width of [1280, 400]) {
      const p = await world.newPage({ width, height: 860 });
      await signInAsAdmin(p, world.origin);
      // The boxes are checked on the pages; with a dialog open, the page behind it is covered on purpose.
      const check = async (what: string, boxes = true) => {
        if (width === 400 && boxes) {
          problems.push(...(await buttonProblems(p)).map((x) => `${width}px ${what}: ${x}`));
          const off = await offScreen(p);
          if (off.overflow > 0 || off.outside.length)
            problems.push(`${width}px ${what}: off-screen ${JSON.stringify(off)}`);
        }
        problems.push(...(await axeProblems(p)).map((x) => `${width}px ${what}: ${x}`));
      };
      await p.goto(`${world.origin}/#/webhooks`);
      await p.getByText(`${receiverOrigin}/hook`).first().waitFor();
      await check('list');
      if (width === 1280) await shot(p, 'webhooks');
      else await shot(p, 'webhooks-narrow');
      await p.goto(`${world.origin}/#/webhooks/${ids.first}/show`);
      await p.getByTestId('delivery-log').waitFor();
      await check('endpoint');
      if (width === 400) await shot(p, 'webhook-show-narrow');
      for (const button of ['Edit', 'Rotate secret', 'Send a test event']) {
        const dialog = await confirmAction(p, button);
        await check(`${button} dialog`, false);
        await cancel(dialog);
      }
      await p
        .getByRole('button', { name: /^Redeliver / })
        .first()
        .click();
      await check('Redeliver dialog', false);
      await cancel(p.getByRole('dialog'));
      await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 90_000);

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});

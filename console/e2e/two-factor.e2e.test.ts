import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addPasskey, SoftwareAuthenticator } from '../../e2e/passkeys';
import { cancel, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offscreenProblems, SHOTS, settled, shot } from './pageChecks';
import { signInInBrowser } from './signIn';

/**
 * The second factor in the console, with the service's admin policy on (TWO_FACTOR_REQUIRED_FOR_ADMINS): an admin
 * without one is sent to enrol before the menu; a user's page shows their second factor (the app and the passkeys)
 * and resets it; an admin whose only factor is a passkey is not sent to enrol; an admin with the app signs in with
 * a code from it or a backup code.
 */
const PASSWORD = 'User-pass-123!';
const tina = { email: 'tina.totp@two-factor-e2e.test', name: 'Tina Totp' };
const ada = { email: 'ada.admin@two-factor-e2e.test', name: 'Ada Admin', role: 'admin' };

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

/** The code an authenticator app shows now, computed by otplib (SHA-1, 6 digits, 30 s). */
const codeNow = (secret: string) => generate({ secret, algorithm: 'sha1', digits: 6, period: 30 });
/** The code of one 30-second time step. */
const codeOfStep = (secret: string, step: number) =>
  generate({ secret, algorithm: 'sha1', digits: 6, period: 30, epoch: step * 30 });
const stepNow = () => Math.floor(Date.now() / 30_000);
const api = (path: string, body?: unknown, cookie = adminCookie) => world.api(path, { body, cookie });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Fewer wrong codes per pending sign-in and per account than by default, so the scenarios reach both limits.
  world = await start({
    env: { TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true', TWO_FACTOR_MAX_ATTEMPTS: '3', TWO_FACTOR_LOCKOUT_FAILURES: '5' },
  });
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  page = await world.newPage();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-two-factor-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('admin second-factor policy in the console', () => {
  it('the API refuses the admin without a second factor (TWO_FACTOR_REQUIRED)', async () => {
    const res = await api('/admin/list-users');
    expect([res.status, res.body.code]).toEqual([403, 'TWO_FACTOR_REQUIRED']);
  });

  it('sends the admin to enrol first: password, QR code, first code, backup codes; only then the menu', async () => {
    await signInInBrowser(page, world.origin, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Set up a second factor' }).waitFor();
    // No menu, no dashboard yet.
    expect(await page.getByRole('menuitem', { name: 'Users' }).count()).toBe(0);
    expect(await axeProblems(page)).toEqual([]);
    // A wrong password is said so in the page, and nothing starts.
    await page.getByLabel(/^Your password/).fill('not the password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Invalid password').waitFor();
    await page.getByLabel(/^Your password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the authenticator app setup' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'two-factor-enrol-qr');
    await page.getByLabel(/^Code from the app/).fill(await codeNow(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    const codes = page.getByTestId('backup-codes').getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(`Signed in as ${ADMIN.name}`).waitFor();
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    // The API agrees: the admin's second factor is on, and admin calls pass.
    const cookie = (await page.context().cookies(world.origin)).map((c) => `${c.name}=${c.value}`).join('; ');
    const session = await world.api('/get-session?disableCookieCache=true', { cookie });
    expect(session.body.user.twoFactorEnabled).toBe(true);
    expect((await api('/admin/list-users')).status).toBe(200);
  });

  it("a user's page shows the second factor; Reset asks first naming the user, cancel sends nothing, confirm resets", async () => {
    const created = await api('/admin/create-user', { ...tina, password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.tina = created.body.user.id;
    const tinaCookie = (await world.signIn(tina.email, PASSWORD)).cookie as string;
    const enabled = await api('/two-factor/enable', { password: PASSWORD }, tinaCookie);
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret') as string;
    expect((await api('/two-factor/verify-totp', { code: await codeNow(secret) }, tinaCookie)).status).toBe(200);

    await page.goto(`${world.origin}/#/users/${ids.tina}/show`);
    await page.getByText('Second factor', { exact: true }).waitFor();
    let dialog = await confirmAction(page, 'Reset second factor');
    expect(await dialog.getByRole('heading').textContent()).toBe(`Reset the second factor of ${tina.email}`);
    expect(await dialog.textContent()).toContain(tina.email);
    await cancel(dialog);
    expect((await api(`/admin/get-user?id=${ids.tina}`)).body.twoFactorEnabled).toBe(true);
    dialog = await confirmAction(page, 'Reset second factor');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Second factor of ${tina.email} reset`).waitFor();
    expect((await api(`/admin/get-user?id=${ids.tina}`)).body.twoFactorEnabled).toBe(false);
    // Nothing left to reset: the action is gone.
    await page.reload();
    await page.getByRole('button', { name: 'Set role' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reset second factor' }).count()).toBe(0);
    expect(await axeProblems(page)).toEqual([]);
  });

  it('at 400 px the enrolment page fits: no button overlaps another or leaves the window, nothing off-screen', async () => {
    const created = await api('/admin/create-user', { ...ada, password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const p = await world.newPage({ width: 400, height: 860 });
    await signInInBrowser(p, world.origin, ada.email, PASSWORD);
    await p.getByRole('heading', { name: 'Set up a second factor' }).waitFor();
    const fits = async (what: string) => {
      await settled(p);
      expect(await buttonProblems(p), what).toEqual([]);
      expect(await offscreenProblems(p), what).toEqual([]);
    };
    await fits('password step');
    await p.getByLabel(/^Your password/).fill(PASSWORD);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.getByTestId('totp-secret').waitFor();
    await fits('code step');
    await shot(p, 'two-factor-enrol-narrow');
    expect(await axeProblems(p)).toEqual([]);
  });
});

/** A user with passkeys, registered through the API from their own session with the software authenticator. */
interface WithPasskeys {
  id: string;
  email: string;
  name: string;
  cookie: string;
}

/**
 * Creates a user (`role`), signs them in through the API and registers one passkey per device named (a synced one:
 * backed up, multi-device), as their browser would on the console's origin (the relying party's PUBLIC_URL); with
 * `app`, also enrols and confirms an authenticator app.
 */
async function withPasskeys(
  email: string,
  name: string,
  role: string,
  devices: { name: string; synced: boolean }[],
  app = false,
): Promise<WithPasskeys> {
  const created = await api('/admin/create-user', { email, name, password: PASSWORD, role });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const cookie = (await world.signIn(email, PASSWORD)).cookie as string;
  for (const device of devices)
    await addPasskey(
      world.api,
      cookie,
      new SoftwareAuthenticator({ origin: world.origin, synced: device.synced }),
      device.name,
    );
  if (app) {
    const enabled = await api('/two-factor/enable', { password: PASSWORD }, cookie);
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret') as string;
    expect((await api('/two-factor/verify-totp', { code: await codeNow(secret) }, cookie)).status).toBe(200);
  }
  return { id: created.body.user.id, email, name, cookie };
}

const userPage = (id: string) => `${world.origin}/#/users/${id}/show`;
const area = () => page.getByTestId('second-factor');
const shownApp = async () => area().getByTestId('second-factor-app').textContent();
const shownCount = async () => area().getByTestId('second-factor-passkeys').textContent();
/** The passkeys table's rows as the page shows them, cell by cell (the cells a wide window shows). */
const shownPasskeys = () =>
  area()
    .getByTestId('passkeys')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));

describe("a user's passkeys in the console", () => {
  const petra = { email: 'petra@two-factor-e2e.test', name: 'Petra Passkeys', id: '' };

  it("a user's page shows the app and each passkey (name, when added, kind, backed up) as the API lists them; none says so", async () => {
    const made = await withPasskeys(
      petra.email,
      petra.name,
      'user',
      [
        { name: 'Work laptop', synced: false },
        { name: 'Phone', synced: true },
      ],
      true,
    );
    petra.id = made.id;
    const listed = await api(`/admin/list-user-passkeys?userId=${petra.id}`);
    expect(listed.status).toBe(200);
    expect(
      listed.body.map((p: { name: string; deviceType: string; backedUp: boolean }) => [
        p.name,
        p.deviceType,
        p.backedUp,
      ]),
    ).toEqual([
      ['Work laptop', 'singleDevice', false],
      ['Phone', 'multiDevice', true],
    ]);
    expect((await api(`/admin/get-user?id=${petra.id}`)).body).toMatchObject({
      twoFactorEnabled: true,
      passkeyCount: 2,
    });

    await page.goto(userPage(petra.id));
    await area().getByTestId('passkeys').waitFor();
    expect(await shownApp()).toBe('On');
    expect(await shownCount()).toBe('2');
    // The rows are the API's, oldest first; the date in the browser's own locale and time zone.
    const expected: string[][] = [];
    for (const p of listed.body as { name: string; createdAt: string; deviceType: string; backedUp: boolean }[]) {
      const added = await page.evaluate(
        (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
        p.createdAt,
      );
      const kind = p.deviceType === 'multiDevice' ? 'Synced' : 'This device only';
      expected.push([p.name, added, kind, p.backedUp ? 'Yes' : 'No']);
    }
    expect(await shownPasskeys()).toEqual(expected);
    expect(await area().getByTestId('passkeys').getAttribute('aria-label')).toBe(`Passkeys of ${petra.email}`);
    expect(await axeProblems(page)).toEqual([]);
    await shot(page, 'user-second-factor');

    // A user without any (Tina, reset above): the app off, no passkeys, and no Reset.
    await page.goto(userPage(ids.tina));
    await area().getByTestId('passkeys-empty').waitFor();
    expect(await area().getByTestId('passkeys-empty').textContent()).toBe('No passkeys');
    expect([await shownApp(), await shownCount()]).toEqual(['Off', '0']);
    await page.getByRole('button', { name: 'Set role' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reset second factor' }).count()).toBe(0);
  }, 90_000);

  it('at 400 px the area and the Reset dialog fit: no button overlaps another or leaves the window, nothing off-screen', async () => {
    await page.setViewportSize({ width: 400, height: 860 });
    try {
      await page.goto(userPage(petra.id));
      await area().getByTestId('passkeys').waitFor();
      await settled(page);
      expect(await buttonProblems(page)).toEqual([]);
      expect(await offscreenProblems(page)).toEqual([]);
      // The narrow table keeps the name, the date and the kind.
      expect((await shownPasskeys()).map((row) => row.slice(0, 3).every(Boolean))).toEqual([true, true]);
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, 'user-second-factor-narrow');
      const dialog = await confirmAction(page, 'Reset second factor');
      await settled(page);
      // The page behind the dialog is covered on purpose: the dialog's own buttons are in the window, apart.
      const boxes = await dialog
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().toJSON() as DOMRect));
      expect(boxes.map((b) => b.left >= 0 && b.right <= 400)).toEqual([true, true]);
      expect(
        boxes[0].right <= boxes[1].left || boxes[1].right <= boxes[0].left || boxes[0].bottom <= boxes[1].top,
      ).toBe(true);
      expect(await offscreenProblems(page)).toEqual([]);
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, 'user-reset-second-factor-narrow');
      await cancel(dialog);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 90_000);

  it('Reset names the user, the app with its backup codes and the 2 passkeys; cancel changes nothing; reopened and confirmed, the page and the API show none', async () => {
    await page.goto(userPage(petra.id));
    await area().getByTestId('passkeys').waitFor();
    const says = `Remove from ${petra.email}: the authenticator app, its backup codes and trusted devices, and 2 passkeys?`;
    let dialog = await confirmAction(page, 'Reset second factor');
    expect(await dialog.getByRole('heading').textContent()).toBe(`Reset the second factor of ${petra.email}`);
    expect(await dialog.textContent()).toContain(says);
    expect(await axeProblems(page)).toEqual([]);
    await shot(page, 'user-reset-second-factor');
    await cancel(dialog);
    // Nothing changed.
    expect((await api(`/admin/get-user?id=${petra.id}`)).body).toMatchObject({
      twoFactorEnabled: true,
      passkeyCount: 2,
    });
    expect((await api(`/admin/list-user-passkeys?userId=${petra.id}`)).body).toHaveLength(2);
    expect(await shownPasskeys()).toHaveLength(2);

    dialog = await confirmAction(page, 'Reset second factor');
    expect(await dialog.textContent()).toContain(says);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Second factor of ${petra.email} reset`).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // The page shows none at once (it read the user and the list again before the dialog closed)...
    expect(await area().getByTestId('passkeys-empty').textContent()).toBe('No passkeys');
    expect([await shownApp(), await shownCount()]).toEqual(['Off', '0']);
    expect(await page.getByRole('button', { name: 'Reset second factor' }).count()).toBe(0);
    // ...and the API agrees.
    expect((await api(`/admin/get-user?id=${petra.id}`)).body).toMatchObject({
      twoFactorEnabled: false,
      passkeyCount: 0,
    });
    expect((await api(`/admin/list-user-passkeys?userId=${petra.id}`)).body).toEqual([]);
    await page.reload();
    await area().getByTestId('passkeys-empty').waitFor();
    expect(await axeProblems(page)).toEqual([]);
  }, 90_000);

  it('an admin whose only factor is a passkey opens the console without enrolling; a reset done with the keyboard sends them to enrol', async () => {
    const pia = await withPasskeys('pia@two-factor-e2e.test', 'Pia Passkey', 'admin', [
      { name: 'Security key', synced: false },
    ]);
    // The service counts the passkey: the policy is met.
    expect((await api('/admin/list-users', undefined, pia.cookie)).status).toBe(200);
    const p = await world.newPage();
    await signInInBrowser(p, world.origin, pia.email, PASSWORD);
    await p.getByText(`Signed in as ${pia.name}`).waitFor();
    await p.getByRole('menuitem', { name: 'Users' }).waitFor();
    expect(await p.getByRole('heading', { name: 'Set up a second factor' }).count()).toBe(0);

    await page.goto(userPage(pia.id));
    await area().getByTestId('passkeys').waitFor();
    expect(await shownApp()).toBe('Off');
    expect(await shownCount()).toBe('1');
    const reset = page.getByRole('button', { name: 'Reset second factor' });
    await reset.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(`Remove from ${pia.email}: 1 passkey?`);
    expect(text).not.toContain('authenticator app');
    // Escape cancels; the focus is back on the action, and Enter opens it again, then confirms.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await api(`/admin/get-user?id=${pia.id}`)).body.passkeyCount).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reset second factor');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await settled(page);
    await page.keyboard.press('Enter');
    await page.getByText(`Second factor of ${pia.email} reset`).waitFor();
    await area().getByTestId('passkeys-empty').waitFor();
    expect((await api(`/admin/list-user-passkeys?userId=${pia.id}`)).body).toEqual([]);

    // Without a second factor, the policy refuses Pia again: the API says so, and the console sends her to enrol.
    const refused = await api('/admin/list-users', undefined, pia.cookie);
    expect([refused.status, refused.body.code]).toEqual([403, 'TWO_FACTOR_REQUIRED']);
    await p.reload();
    await p.getByRole('heading', { name: 'Set up a second factor' }).waitFor();
    expect(await p.getByRole('menuitem', { name: 'Users' }).count()).toBe(0);
    await p.context().close();
  }, 90_000);
});

/** An account enrolled through the API, with what its authenticator app and its saved backup codes hold. */
interface Enrolled {
  id: string;
  email: string;
  name: string;
  secret: string;
  backupCodes: string[];
  /** The last time step whose code the service accepted (it refuses that step and every earlier one). */
  lastStep: number;
}

/** A user (an admin unless `role` says otherwise) whose second factor is on, enrolled and confirmed through the API. */
async function enrolled(email: string, name: string, role = 'admin'): Promise<Enrolled> {
  const created = await api('/admin/create-user', { email, name, password: PASSWORD, role });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const cookie = (await world.signIn(email, PASSWORD)).cookie as string;
  const enabled = await api('/two-factor/enable', { password: PASSWORD }, cookie);
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const secret = new URL(enabled.body.totpURI).searchParams.get('secret') as string;
  const step = stepNow();
  expect((await api('/two-factor/verify-totp', { code: await codeOfStep(secret, step) }, cookie)).status).toBe(200);
  return { id: created.body.user.id, email, name, secret, backupCodes: enabled.body.backupCodes, lastStep: step };
}

/**
 * A code the service accepts now and has not accepted before: this time step's, or the next one's when this one
 * was used (the service takes the codes of one step either side); waits when both were.
 */
async function nextCode(who: Enrolled): Promise<string> {
  for (;;) {
    const step = Math.max(stepNow(), who.lastStep + 1);
    if (step <= stepNow() + 1) {
      who.lastStep = step;
      return codeOfStep(who.secret, step);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Six digits that are none of the codes the service would take now. */
async function wrongCode(who: Enrolled): Promise<string> {
  const now = stepNow();
  const taken = await Promise.all([now - 1, now, now + 1, now + 2].map((step) => codeOfStep(who.secret, step)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!taken.includes(code)) return code;
  }
}

/** The cookies of a page's browser, as a Cookie header for the API. */
const cookieOf = async (p: Page) =>
  (await p.context().cookies(world.origin)).map((c) => `${c.name}=${c.value}`).join('; ');

const codeField = (p: Page) => p.getByTestId('two-factor-code');
const codeStep = (p: Page) => p.getByRole('heading', { name: 'Two-step verification' });
const focusedTestId = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

/** Gives a code on the code step (Enter) and waits for the service's answer. */
async function giveCode(p: Page, code: string): Promise<void> {
  await codeField(p).fill(code);
  await Promise.all([
    p.waitForResponse((r) => /\/two-factor\/verify-/.test(r.url()) && r.request().method() === 'POST'),
    codeField(p).press('Enter'),
  ]);
}

/** Signs in with the password and waits for the code step. */
async function toCodeStep(p: Page, who: Enrolled): Promise<void> {
  await signInInBrowser(p, world.origin, who.email, PASSWORD);
  await codeStep(p).waitFor();
}

/**
 * The console is open for `who`: the greeting, and the menu in a wide window (not the enrolment page: their second
 * factor is on); the API sees the browser signed in as them.
 */
async function inConsole(p: Page, who: Enrolled, wide = true): Promise<void> {
  await p.getByText(`Signed in as ${who.name}`).waitFor();
  if (wide) await p.getByRole('menuitem', { name: 'Users' }).waitFor();
  else await p.getByTestId('dashboard-intro').waitFor();
  const session = await world.api('/get-session?disableCookieCache=true', { cookie: await cookieOf(p) });
  expect(session.body.user.email).toBe(who.email);
}

describe('signing in with a second factor', () => {
  it('asks for the code after the password; a wrong code is said under the field, which keeps the focus; the right one opens the console', async () => {
    const otto = await enrolled('otto.admin@two-factor-e2e.test', 'Otto Admin');
    const p = await world.newPage();
    await toCodeStep(p, otto);
    expect(p.url()).toContain('#/login');
    await p.getByText(`The password of ${otto.email} is right.`, { exact: false }).waitFor();
    // The field an authenticator app or a phone's keyboard expects, with the focus.
    expect(await codeField(p).getAttribute('inputmode')).toBe('numeric');
    expect(await codeField(p).getAttribute('autocomplete')).toBe('one-time-code');
    expect(await focusedTestId(p)).toBe('two-factor-code');
    expect(await p.getByRole('checkbox', { name: /^Trust this device/ }).isChecked()).toBe(false);
    expect(await axeProblems(p)).toEqual([]);
    await shot(p, 'two-factor-sign-in');

    await codeField(p).fill(await wrongCode(otto));
    await p.getByRole('button', { name: 'Verify' }).click();
    // The catalogue's message, as an alert (read out), describing the field, which is marked invalid and focused.
    const alert = p.getByRole('alert');
    await alert.getByText('Invalid code').waitFor();
    expect(await codeField(p).getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await codeField(p).getAttribute('aria-describedby')) ?? '';
    expect(await p.locator(`[id="${describedBy}"]`).textContent()).toBe('Invalid code');
    await expect.poll(() => focusedTestId(p)).toBe('two-factor-code');
    expect(await codeStep(p).isVisible()).toBe(true);
    expect(await axeProblems(p)).toEqual([]);
    await shot(p, 'two-factor-sign-in-wrong');

    await codeField(p).fill(await nextCode(otto));
    await p.getByRole('button', { name: 'Verify' }).click();
    await inConsole(p, otto);
    // Not trusted: the browser holds no trusted-device cookie.
    expect((await p.context().cookies(world.origin)).some((c) => /trust_device$/.test(c.name))).toBe(false);
    await p.context().close();
  }, 90_000);

  it('a backup code signs in once; trusting the device skips the code at the next sign-in', async () => {
    const bea = await enrolled('bea.backup@two-factor-e2e.test', 'Bea Backup');
    const p = await world.newPage();
    await toCodeStep(p, bea);
    await p.getByRole('button', { name: 'Use a backup code instead' }).click();
    await p.getByLabel(/^Backup code/).waitFor();
    expect(await focusedTestId(p)).toBe('two-factor-code');
    expect(await codeField(p).getAttribute('inputmode')).toBeNull();
    await codeField(p).fill('aaaaa-bbbbb');
    await codeField(p).press('Enter');
    await p.getByRole('alert').getByText('Invalid backup code').waitFor();
    await codeField(p).fill(bea.backupCodes[0]);
    await p.getByRole('checkbox', { name: /^Trust this device/ }).check();
    await p.getByRole('button', { name: 'Verify' }).click();
    await inConsole(p, bea);
    const status = await world.api('/two-factor/status', { cookie: await cookieOf(p) });
    expect(status.body).toMatchObject({ enabled: true, backupCodesRemaining: bea.backupCodes.length - 1 });
    expect((await p.context().cookies(world.origin)).some((c) => /trust_device$/.test(c.name))).toBe(true);

    // Signed out, then in again with the password alone: this browser is trusted, no code is asked.
    await p.getByRole('button', { name: bea.name }).click();
    await p.getByRole('menuitem', { name: 'Logout' }).click();
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
    await signInInBrowser(p, world.origin, bea.email, PASSWORD);
    await inConsole(p, bea);
    await p.context().close();
  }, 90_000);

  it('Cancel goes back to the password step with the email kept; signing in again asks for the code again', async () => {
    const cal = await enrolled('cal.cancel@two-factor-e2e.test', 'Cal Cancel');
    const p = await world.newPage();
    await toCodeStep(p, cal);
    await codeField(p).fill('123');
    await p.getByRole('button', { name: 'Cancel' }).click();
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await codeStep(p).count()).toBe(0);
    expect(await p.getByLabel(/^Email/).inputValue()).toBe(cal.email);
    expect(await p.getByLabel(/^Password/).inputValue()).toBe('');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    // Nothing signed in meanwhile.
    expect((await world.api('/get-session', { cookie: await cookieOf(p) })).body).toBeNull();

    await p.getByLabel(/^Password/).fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await codeStep(p).waitFor();
    expect(await codeField(p).inputValue()).toBe('');
    await codeField(p).fill(await nextCode(cal));
    await codeField(p).press('Enter');
    await inConsole(p, cal);
    await p.context().close();
  }, 90_000);

  it('works with the keyboard only: the password, a wrong code, the right one', async () => {
    const kim = await enrolled('kim.keys@two-factor-e2e.test', 'Kim Keys');
    const p = await world.newPage();
    await p.goto(`${world.origin}/#/login`);
    await p.getByLabel(/^Email/).waitFor();
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await p.keyboard.type(kim.email);
    await p.keyboard.press('Tab');
    await p.keyboard.type(PASSWORD);
    await p.keyboard.press('Enter');
    await codeStep(p).waitFor();
    await expect.poll(() => focusedTestId(p)).toBe('two-factor-code');
    await p.keyboard.type(await wrongCode(kim));
    await p.keyboard.press('Enter');
    await p.getByRole('alert').getByText('Invalid code').waitFor();
    // Still in the field, its text selected: typing replaces it.
    await expect.poll(() => focusedTestId(p)).toBe('two-factor-code');
    await p.keyboard.type(await nextCode(kim));
    expect(await codeField(p).inputValue()).toHaveLength(6);
    // Tab reaches the device checkbox (Space ticks it), then Verify.
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Verify');
    await p.keyboard.press('Enter');
    await inConsole(p, kim);
    await p.context().close();
  }, 90_000);

  it('an expired pending sign-in, too many wrong codes and a locked account each go back to the password step, saying why', async () => {
    const lou = await enrolled('lou.locked@two-factor-e2e.test', 'Lou Locked');
    const p = await world.newPage();
    const notice = p.getByTestId('sign-in-notice');

    // The pending sign-in runs out (its 5 minutes, here set in the past): even a right code cannot finish it.
    await toCodeStep(p, lou);
    await world.query(`UPDATE two_factor_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      lou.id,
    ]);
    await giveCode(p, await codeNow(lou.secret));
    await notice.getByText('This sign-in waited too long for its code', { exact: false }).waitFor();
    expect(await p.getByLabel(/^Email/).inputValue()).toBe(lou.email);
    expect(await axeProblems(p)).toEqual([]);

    // Three wrong codes (TWO_FACTOR_MAX_ATTEMPTS here): the fourth attempt ends the pending sign-in.
    await p.getByLabel(/^Password/).fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await codeStep(p).waitFor();
    expect(await notice.count()).toBe(0);
    for (let i = 0; i < 3; i++) {
      await giveCode(p, await wrongCode(lou));
      await p.getByRole('alert').getByText('Invalid code').waitFor();
    }
    await giveCode(p, await wrongCode(lou));
    await notice.getByText('Too many wrong codes for this sign-in.', { exact: false }).waitFor();

    // Two more wrong codes make five in a row (TWO_FACTOR_LOCKOUT_FAILURES here): the account's second factor is
    // locked, and the next code, even a right one, is refused.
    await p.getByLabel(/^Password/).fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await codeStep(p).waitFor();
    for (let i = 0; i < 2; i++) {
      await giveCode(p, await wrongCode(lou));
      await p.getByRole('alert').getByText('Invalid code').waitFor();
    }
    await giveCode(p, await codeNow(lou.secret));
    await notice.getByText('the second factor of this account is locked for a while', { exact: false }).waitFor();
    await shot(p, 'two-factor-sign-in-locked');
    // The API agrees: a new pending sign-in with a right code is refused while the lock runs.
    const pending = await world.signIn(lou.email, PASSWORD);
    expect(pending.body.twoFactorRedirect).toBe(true);
    const refused = await api('/two-factor/verify-totp', { code: await codeNow(lou.secret) }, pending.cookie);
    expect([refused.status, refused.body.code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    await p.context().close();
  }, 120_000);

  it('a user who is not an admin gives the right code, then is refused and signed out again', async () => {
    const pat = await enrolled('pat.plain@two-factor-e2e.test', 'Pat Plain', 'user');
    const p = await world.newPage();
    await toCodeStep(p, pat);
    await codeField(p).fill(await nextCode(pat));
    await codeField(p).press('Enter');
    await p.getByTestId('sign-in-notice').getByText('This account is not an administrator').waitFor();
    expect(p.url()).toContain('#/login');
    expect((await world.api('/get-session', { cookie: await cookieOf(p) })).body).toBeNull();
    await p.context().close();
  }, 90_000);

  it('at 400 and 320 px the code step fits: no button overlaps another or leaves the window, nothing off-screen', async () => {
    const nia = await enrolled('nia.narrow@two-factor-e2e.test', 'Nia Narrow');
    const p = await world.newPage({ width: 400, height: 860 });
    await toCodeStep(p, nia);
    const fits = async (what: string) => {
      await settled(p);
      expect(await buttonProblems(p), what).toEqual([]);
      expect(await offscreenProblems(p), what).toEqual([]);
    };
    await fits('code step at 400 px');
    expect(await axeProblems(p)).toEqual([]);
    await shot(p, 'two-factor-sign-in-narrow');
    await codeField(p).fill(await wrongCode(nia));
    await codeField(p).press('Enter');
    await p.getByRole('alert').getByText('Invalid code').waitFor();
    await fits('a wrong code at 400 px');
    await p.getByRole('button', { name: 'Use a backup code instead' }).click();
    await fits('backup code at 400 px');
    await p.setViewportSize({ width: 320, height: 700 });
    await fits('backup code at 320 px');
    expect(await axeProblems(p)).toEqual([]);
    await shot(p, 'two-factor-sign-in-320');
    await p.getByRole('button', { name: 'Use the authenticator app instead' }).click();
    await codeField(p).fill(await nextCode(nia));
    await codeField(p).press('Enter');
    await inConsole(p, nia, false);
    await p.context().close();
  }, 90_000);
});

describe('after every scenario', () => {
  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cancel, confirmAction } from './dialogs';
import { ADMIN, start, type World } from './harness';
import { axeProblems, buttonProblems, offscreenProblems, SHOTS, settled, shot } from './pageChecks';
import { signInInBrowser } from './signIn';

/**
 * The second factor in the console, with the service's admin policy on (TWO_FACTOR_REQUIRED_FOR_ADMINS): an admin
 * without one is sent to enrol before the menu; a user's page shows their second factor and resets it.
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
const api = (path: string, body?: unknown, cookie = adminCookie) => world.api(path, { body, cookie });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start({ env: { TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true' } });
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

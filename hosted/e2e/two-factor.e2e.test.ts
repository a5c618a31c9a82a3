import { readFileSync } from 'node:fs';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, buttonProblems, offscreenProblems } from '../../e2e/page-checks';
import { start, type World } from './harness';
import { browserSteps, shot } from './steps';

/**
 * The second factor in the hosted pages (docs/two-factor.md, docs/hosted-pages.md), in headless Chromium against the
 * real service: the code step after a password or a social sign-in, a backup code, a trusted device, the end of a
 * pending sign-in (too many codes, account lockout, expired), and the account security page (enrolment with the QR
 * code, new backup codes, turning it off after a fresh sign-in). Codes come from otplib, as an authenticator app's.
 */
let world: World;
const PASSWORD = 'Pages-pass-123!';
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@two-factor-e2e.test`;
const product = () => `${world.productOrigin}/`;
const signInPage = () => `${world.pages}/sign-in?callbackURL=${encodeURIComponent(product())}`;

beforeAll(async () => {
  world = await start({
    // Sessions stay fresh long enough to turn the second factor off; the stale case ages its session by hand.
    SESSION_FRESH_AGE_SEC: '900',
    // A low account lockout, reached within one test (each other test makes at most one wrong guess per user).
    TWO_FACTOR_LOCKOUT_FAILURES: '7',
  });
});
afterAll(async () => {
  await world?.stop();
});
const { newPage, checkPage, expectRefusals } = browserSteps(() => world);

/**
 * An authenticator app, as otplib computes its codes (SHA-1, 6 digits, 30 s). The service accepts each time step once
 * and never an earlier one, and one step of drift either way: each code is for the step after the last one used,
 * waiting for the clock when that step is not accepted yet.
 */
class App {
  private last = -1;
  constructor(readonly secret: string) {}
  static step = () => Math.floor(Date.now() / 30_000);
  async code(): Promise<string> {
    const step = Math.max(App.step() - 1, this.last + 1);
    while (step > App.step() + 1) await new Promise((r) => setTimeout(r, 500));
    this.last = step;
    return generate({ secret: this.secret, algorithm: 'sha1', digits: 6, period: 30, epoch: step * 30 });
  }
  /** A code the service refuses: one for a step long past. */
  wrong(): Promise<string> {
    return generate({ secret: this.secret, algorithm: 'sha1', digits: 6, period: 30, epoch: (App.step() - 20) * 30 });
  }
}

interface Enrolled {
  address: string;
  app: App;
  backupCodes: string[];
  cookie: string;
}

/** A user who turned the second factor on through the API (enable, then a first code). */
async function enrolledUser(tag: string, verified = false): Promise<Enrolled> {
  const address = email(tag);
  const signUp = await world.api('/sign-up/email', { body: { name: tag, email: address, password: PASSWORD } });
  expect(signUp.status).toBe(200);
  if (verified) await world.query('UPDATE users SET email_verified = true WHERE email = $1', [address]);
  const cookie = signUp.cookie as string;
  const enabled = await world.api('/two-factor/enable', { body: { password: PASSWORD }, cookie });
  expect(enabled.status).toBe(200);
  const app = new App(new URL(enabled.body.totpURI).searchParams.get('secret') as string);
  const verify = await world.api('/two-factor/verify-totp', { body: { code: await app.code() }, cookie });
  expect(verify.status).toBe(200);
  return { address, app, backupCodes: enabled.body.backupCodes, cookie };
}

async function signInWithPassword(page: Page, address: string) {
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return {
      tag: el?.tagName.toLowerCase(),
      label: el?.labels?.[0]?.textContent ?? el?.textContent ?? null,
      invalid: el?.getAttribute('aria-invalid') ?? null,
      describedBy: (el?.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? `missing ${id}`),
    };
  });

/** Types a code on the code step and sends it: the API's answer code (or OK), once the page has shown it. */
async function tryCode(page: Page, code: string): Promise<string> {
  await page.getByLabel('Code from the app').fill(code);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/two-factor/verify-totp')),
    page.getByRole('button', { name: 'Verify' }).click(),
  ]);
  const body = await response.json();
  await page.waitForFunction(() => !document.querySelector('button[aria-busy="true"]'));
  return response.ok() ? 'OK' : body.code;
}

const userOf = async (address: string) =>
  (await world.query('SELECT id, two_factor_enabled FROM users WHERE email = $1', [address]))[0] as {
    id: string;
    two_factor_enabled: boolean;
  };

describe('the second-factor step', () => {
  it('from a product: sign in, the code step, a wrong code announced, the right one, back signed in; then a trusted device skips the step', async () => {
    const u = await enrolledUser('totp');
    const page = await newPage();
    await page.goto(product());
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await signInWithPassword(page, u.address);
    await page.waitForURL(`${world.pages}/two-factor?callbackURL=${encodeURIComponent(product())}`);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    // The field a code is typed in has the focus, the numeric keyboard and the one-time-code autofill.
    const field = page.getByLabel('Code from the app');
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Code from the app' });
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await page.getByText('Trust this device for 30 days').waitFor();
    await checkPage(page, 'two-factor');

    await field.fill(await u.app.wrong());
    await page.getByRole('button', { name: 'Verify' }).click();
    const message = 'Invalid code. Enter the code the app shows now.';
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe(message);
    // The field has the focus back, marked invalid and described by the announced message.
    expect(await activeElement(page)).toEqual({
      tag: 'input',
      label: 'Code from the app',
      invalid: 'true',
      describedBy: [message],
    });
    expectRefusals('401 (Unauthorized)');
    await checkPage(page, 'two-factor wrong code');

    await field.fill(await u.app.code());
    await page.getByLabel('Trust this device for 30 days').check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${u.address}`).waitFor();

    // Signed out, then in again from the product in the same browser: the trusted device skips the code step.
    await page.goto(`${world.pages}/sign-out?callbackURL=${encodeURIComponent(product())}`);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await signInWithPassword(page, u.address);
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    expect(visited.filter((url) => url.includes('/two-factor'))).toEqual([]);
    const { id } = await userOf(u.address);
    const signIns = await world.query(
      "SELECT details->>'method' AS method, details->>'secondFactor' AS factor FROM audit_events WHERE target_id = $1 AND type = 'user.signed_in' ORDER BY seq",
      [id],
    );
    expect(signIns.slice(-2)).toEqual([
      { method: 'email', factor: 'totp' },
      { method: 'email+trusted-device', factor: null },
    ]);
    await page.context().close();
  });

  it('keyboard alone, in German: a backup code instead of the app; the code is spent', async () => {
    const u = await enrolledUser('backup');
    const page = await newPage(undefined, { locale: 'de-DE' });
    await page.goto(signInPage());
    await page.getByRole('heading', { name: 'Bei Acme anmelden' }).waitFor();
    await page.keyboard.type(u.address);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Zwei-Faktor-Authentifizierung' }).waitFor();
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Code aus der App' });
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toMatchObject({ label: 'Diesem Gerät 30 Tage lang vertrauen' });
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Bestätigen' });
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toMatchObject({ label: 'Stattdessen einen Backup-Code verwenden' });
    await page.keyboard.press('Enter');
    // The backup-code field replaces the app's and has the focus: letters allowed, no one-time-code autofill.
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Backup-Code' });
    expect(await page.getByLabel('Backup-Code').getAttribute('inputmode')).toBe('text');
    await checkPage(page, 'two-factor backup German');
    await page.keyboard.type(u.backupCodes[0]);
    await page.keyboard.press('Enter');
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    const status = await world.api('/two-factor/status', { cookie: u.cookie });
    expect(status.body).toEqual({ enabled: true, totp: true, backupCodesRemaining: 9, passkeys: 0 });
    await page.context().close();
  });

  it('too many wrong codes end the pending sign-in, then the account locks; an expired one says so: each with the way back', async () => {
    const u = await enrolledUser('lockout');
    const page = await newPage();
    await page.goto(signInPage());
    await signInWithPassword(page, u.address);
    const field = page.getByLabel('Code from the app');
    await field.waitFor();
    // TWO_FACTOR_MAX_ATTEMPTS (5) wrong codes, then the pending sign-in is given up.
    for (let i = 0; i < 5; i++) expect(await tryCode(page, await u.app.wrong())).toBe('INVALID_CODE');
    expect(await tryCode(page, await u.app.wrong())).toBe('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE');
    await page.getByText('Too many wrong codes for this sign-in. Please sign in again.').waitFor();
    const again = page.getByRole('link', { name: 'Sign in again' });
    expect(await activeElement(page)).toMatchObject({ tag: 'a', label: 'Sign in again' });
    world.consoleErrors.splice(0);
    await checkPage(page, 'two-factor too many');

    // Back to sign-in, the product's callback kept; two more wrong codes reach the account lockout (7 in a row).
    await again.click();
    await page.waitForURL(signInPage());
    await signInWithPassword(page, u.address);
    await field.waitFor();
    const answers: string[] = [];
    while (!answers.includes('ACCOUNT_TEMPORARILY_LOCKED') && answers.length < 3)
      answers.push(await tryCode(page, await u.app.wrong()));
    expect(answers.at(-1)).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    await page.getByText('Your account is temporarily locked').waitFor();
    await page.getByRole('link', { name: 'Sign in again' }).waitFor();
    // Even the right code is refused while the lock runs.
    const locked = await world.api('/sign-in/email', { body: { email: u.address, password: PASSWORD } });
    const pending = await world.api('/two-factor/verify-totp', {
      body: { code: await u.app.code() },
      cookie: locked.cookie,
    });
    expect([pending.status, pending.body.code]).toEqual([429, 'ACCOUNT_TEMPORARILY_LOCKED']);
    world.consoleErrors.splice(0);
    await checkPage(page, 'two-factor locked');
    await page.context().close();

    // No pending sign-in at all (expired, or never started in this browser), in Spanish.
    const other = await newPage();
    await other.goto(`${world.pages}/two-factor?callbackURL=${encodeURIComponent(product())}&lang=es`);
    await other.getByLabel('Código de la aplicación').fill('123456');
    await other.getByRole('button', { name: 'Verificar' }).click();
    await other.getByText('Este inicio de sesión ha caducado').waitFor();
    expect(await other.getByRole('link', { name: 'Volver a iniciar sesión' }).getAttribute('href')).toBe(
      `sign-in?callbackURL=${encodeURIComponent(product())}&lang=es`,
    );
    expectRefusals('401 (Unauthorized)');
    await checkPage(other, 'two-factor expired');
    await other.context().close();
  });

  it('social sign-in through the loopback OpenID provider: the code step after the provider, then the product', async () => {
    const u = await enrolledUser('social', true);
    world.oidc.users.set('corp-2fa-user', { email: u.address, email_verified: true, name: 'Corp Two' });
    world.oidc.defaultLogin = 'corp-2fa-user';
    const page = await newPage();
    const productVisits: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.url().startsWith(world.productOrigin)) productVisits.push(r.url());
    });
    await page.goto(product());
    await page.getByRole('button', { name: 'Continue with Corp SSO' }).click();
    // Back from the provider on the pages (never on the product), asked for the code, the cue gone from the address.
    await page.waitForURL(`${world.pages}/two-factor?callbackURL=${encodeURIComponent(product())}`);
    expect(productVisits).toEqual([product()]);
    await page.getByLabel('Code from the app').fill(await u.app.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    const accounts = await world.query(
      'SELECT a.provider_id FROM accounts a JOIN users u ON u.id = a.user_id WHERE u.email = $1 ORDER BY 1',
      [u.address],
    );
    expect(accounts.map((a) => a.provider_id)).toEqual(['corp', 'credential']);
    await page.context().close();
  });
});

describe('the account security page', () => {
  it('signed out: to sign-in and back; enrol (QR code, secret, first code, backup codes copied and downloaded), new codes, turn off after a fresh sign-in', async () => {
    const address = email('enrol');
    expect(
      (await world.api('/sign-up/email', { body: { name: 'Enrol', email: address, password: PASSWORD } })).status,
    ).toBe(200);
    const page = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.apiOrigin });
    const security = `${world.pages}/security?callbackURL=${encodeURIComponent(product())}`;
    await page.goto(security);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=%2Fauth%2Fsecurity/);
    await signInWithPassword(page, address);
    await page.waitForURL(security);
    await page.getByRole('heading', { name: 'Account security' }).waitFor();
    await page.getByText('Off.', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Acme' }).getAttribute('href')).toBe(product());
    await checkPage(page, 'security off');

    // Turn on: the password (a wrong one said so, the field focused again), then the QR code and the secret.
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Turn on two-factor authentication' }).waitFor();
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Password' });
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Continue' }).click();
    const wrong = 'The password is not right. Enter the password of your account.';
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe(wrong);
    expect(await activeElement(page)).toMatchObject({ label: 'Password', invalid: 'true', describedBy: [wrong] });
    expectRefusals('400 (Bad Request)');
    await checkPage(page, 'security password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    const qr = page.getByRole('img', { name: 'QR code to set up your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth >= 150)).toBe(true);
    const shown = (await page.locator('#totp-secret').textContent()) ?? '';
    const secret = shown.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await activeElement(page)).toMatchObject({ tag: 'h3' });
    await checkPage(page, 'security scan');
    // The secret as text works: an app set up by typing it gives the codes the service accepts.
    const app = new App(secret);
    await page.getByLabel('Code from the app').fill(await app.code());
    await page.getByRole('button', { name: 'Verify' }).click();

    // The backup codes, once: copied, downloaded.
    await page.getByRole('heading', { name: 'Save your backup codes' }).waitFor();
    await page.getByText('Two-factor authentication is on.').waitFor();
    const codes = await page.locator('#backup-codes li').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/i);
    await page.getByRole('button', { name: 'Copy the codes' }).click();
    await page.getByText('The codes are copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download as a text file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('acme-backup-codes.txt');
    const file = readFileSync(await download.path(), 'utf8');
    expect(file.split('\r\n')).toEqual([`Backup codes for Acme (${address}). Each code works once.`, '', ...codes, '']);
    await checkPage(page, 'security codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('On.', { exact: true }).waitFor();
    await page.getByText('Backup codes left: 10').waitFor();
    expect((await userOf(address)).two_factor_enabled).toBe(true);
    await checkPage(page, 'security on');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(page, 'security dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // New backup codes: the password, then a new set; the old ones stop working.
    await page.getByRole('button', { name: 'Get new backup codes' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Save your backup codes' }).waitFor();
    const fresh = await page.locator('#backup-codes li').allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Backup codes left: 10').waitFor();
    const old = await world.api('/sign-in/email', { body: { email: address, password: PASSWORD } });
    const refused = await world.api('/two-factor/verify-backup-code', { body: { code: codes[0] }, cookie: old.cookie });
    expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_BACKUP_CODE']);

    // Turn off, cancelled and opened again.
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('heading', { name: 'Turn off two-factor authentication' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Backup codes left: 10').waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    // The session is an hour old now: turning off needs a fresh sign-in, which the page explains and offers.
    const { id } = await userOf(address);
    await world.query("UPDATE sessions SET created_at = now() - interval '1 hour' WHERE user_id = $1", [id]);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('For your safety, this needs a recent sign-in.').waitFor();
    expectRefusals('403 (Forbidden)');
    await checkPage(page, 'security stale');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=%2Fauth%2Fsecurity/);
    await signInWithPassword(page, address);
    await page.getByLabel('Code from the app').fill(await app.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(security);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Two-factor authentication is off.').waitFor();
    await page.getByText('Off.', { exact: true }).waitFor();
    expect((await userOf(address)).two_factor_enabled).toBe(false);
    await checkPage(page, 'security turned off');
    await page.context().close();
  });

  it('320 px wide (Polish): the security page, its QR code and codes, then the code step at the next sign-in', async () => {
    const address = email('narrow');
    expect(
      (await world.api('/sign-up/email', { body: { name: 'Narrow', email: address, password: PASSWORD } })).status,
    ).toBe(200);
    const page = await newPage({ width: 320, height: 640 }, { locale: 'pl-PL' });
    const fits = async (what: string) => {
      await shot(page, what);
      expect([what, await offscreenProblems(page)]).toEqual([what, []]);
      expect([what, await buttonProblems(page)]).toEqual([what, []]);
      expect([what, await axeProblems(page)]).toEqual([what, []]);
    };
    await page.goto(`${world.pages}/sign-in`);
    await page.getByLabel('Adres e-mail').fill(address);
    await page.getByLabel('Hasło').fill(PASSWORD);
    await page.getByRole('button', { name: 'Zaloguj się' }).click();
    // Signed in with no product to go back to: the page offers the account security page.
    await page.getByRole('link', { name: 'Bezpieczeństwo konta' }).click();
    await page.getByRole('heading', { name: 'Bezpieczeństwo konta' }).waitFor();
    await page.getByText('Wyłączone.', { exact: true }).waitFor();
    await fits('security-320');
    await page.getByRole('button', { name: 'Włącz' }).click();
    await page.getByLabel('Hasło').fill(PASSWORD);
    await page.getByRole('button', { name: 'Dalej' }).click();
    await page.locator('#totp-secret').waitFor();
    await fits('security-scan-320');
    const app = new App(((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s+/g, ''));
    await page.getByLabel('Kod z aplikacji').fill(await app.code());
    await page.getByRole('button', { name: 'Potwierdź' }).click();
    await page.getByRole('heading', { name: 'Zapisz kody zapasowe' }).waitFor();
    await fits('security-codes-320');
    await page.getByRole('button', { name: 'Mam je zapisane' }).click();
    await page.getByText('Włączone.', { exact: true }).waitFor();

    await page.goto(`${world.pages}/sign-out`);
    await page.getByRole('heading', { name: 'Wylogowano' }).waitFor();
    await page.goto(`${world.pages}/sign-in`);
    await page.getByLabel('Adres e-mail').fill(address);
    await page.getByLabel('Hasło').fill(PASSWORD);
    await page.getByRole('button', { name: 'Zaloguj się' }).click();
    await page.getByRole('heading', { name: 'Uwierzytelnianie dwuskładnikowe' }).waitFor();
    await fits('two-factor-320');
    await page.getByLabel('Kod z aplikacji').fill(await app.code());
    await page.getByRole('button', { name: 'Potwierdź' }).click();
    // No product callback: the sign-in page, which says who is signed in.
    await page.getByRole('heading', { name: 'Jesteś zalogowany' }).waitFor();
    expect([world.pageErrors, world.consoleErrors]).toEqual([[], []]);
    await page.context().close();
  });
});

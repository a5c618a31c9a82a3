import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, buttonProblems, offscreenProblems } from '../../e2e/page-checks';
import { freePort } from '../../e2e/world';
import { start, type World } from './harness';
import { browserSteps, shot } from './steps';

/**
 * Passkeys in the hosted pages (docs/hosted-pages.md, docs/two-factor.md "Passkeys"), in headless Chromium against
 * the real service, the device being Chromium's virtual authenticator (the DevTools Protocol's WebAuthn domain: CTAP2,
 * a platform authenticator keeping discoverable credentials and verifying its user). The pages run on `localhost`: a
 * relying party id must be a domain, and the browser refuses an IP address. Also the published client alone
 * (`createAuthClient` with `passkeyClient()`), bundled here, from a page on another trusted origin.
 */
let world: World;
let clientOrigin: string;
let clientHost: Server | null = null;
let bundleDir: string | null = null;
const PASSWORD = 'Pages-pass-123!';
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@passkeys-e2e.test`;
const product = () => `${world.productOrigin}/`;
const signInPage = () => `${world.pages}/sign-in?callbackURL=${encodeURIComponent(product())}`;
const securityPage = () => `${world.pages}/security?callbackURL=${encodeURIComponent(product())}`;

/**
 * The published client, bundled as a product would bundle it (vite's library build of published-client.ts), served
 * with a page that puts it on `window.auth` for the test to call.
 */
async function publishedClientHost(origin: string, port: number, apiBase: string): Promise<Server> {
  bundleDir = mkdtempSync(join(tmpdir(), 'hosted-passkey-client-'));
  await build({
    configFile: false,
    root: join(import.meta.dirname, '..'),
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: bundleDir,
      emptyOutDir: true,
      lib: { entry: join(import.meta.dirname, 'published-client.ts'), formats: ['es'], fileName: () => 'client.js' },
    },
  });
  const script = readFileSync(join(bundleDir, 'client.js'));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head><body><main><h1>Product</h1></main>
<script type="module">
import { makeAuth } from './client.js';
window.auth = makeAuth(${JSON.stringify(apiBase)});
</script></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/client.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((res) => server.listen(port, '127.0.0.1', res));
  expect(new URL(origin).port).toBe(String(port));
  return server;
}

beforeAll(async () => {
  const clientPort = await freePort();
  clientOrigin = `http://localhost:${clientPort}`;
  world = await start(
    {
      // Adding a passkey needs a session signed in within this (docs/two-factor.md, Passkeys).
      SESSION_FRESH_AGE_SEC: '900',
      // The relying party is the loopback domain; its origins are the defaults: PUBLIC_URL (the pages) and the
      // trusted origins on it (the product and the published client's page).
      PASSKEY_RP_ID: 'localhost',
      PASSKEY_RP_NAME: 'Acme',
    },
    [clientOrigin],
    { host: 'localhost' },
  );
  clientHost = await publishedClientHost(clientOrigin, clientPort, `${world.apiOrigin}/api/auth`);
});
afterAll(async () => {
  const host = clientHost;
  if (host) await new Promise<void>((res) => host.close(() => res()));
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
  await world?.stop();
});
const { newPage, checkPage, expectRefusals } = browserSteps(() => world);

/**
 * Chromium's virtual authenticator in one tab (WebAuthn.addVirtualAuthenticator): CTAP2 over the internal
 * transport, discoverable credentials, user verification. It answers every ceremony at once, as a user who
 * touches the sensor would; `verified(false)` makes it fail user verification, which the page sees as the user
 * dismissing the ceremony (NotAllowedError).
 */
class Authenticator {
  private constructor(
    private readonly cdp: CDPSession,
    private id: string,
  ) {}

  static async attach(page: Page, isUserVerified = true): Promise<Authenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const device = new Authenticator(cdp, '');
    await device.plugIn(isUserVerified);
    return device;
  }

  private async plugIn(isUserVerified: boolean) {
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified,
      },
    });
    this.id = authenticatorId;
  }

  async credentials() {
    return (await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.id })).credentials;
  }

  async verified(isUserVerified: boolean) {
    await this.cdp.send('WebAuthn.setUserVerified', { authenticatorId: this.id, isUserVerified });
  }

  /** Taken away (its credentials answered), as a security key pulled out. */
  async unplug() {
    const credentials = await this.credentials();
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.id });
    return credentials;
  }

  /** Plugged in again with the credentials it held. */
  async plugBack(credentials: Awaited<ReturnType<Authenticator['credentials']>>) {
    await this.plugIn(true);
    for (const credential of credentials)
      await this.cdp.send('WebAuthn.addCredential', { authenticatorId: this.id, credential });
  }
}

/** A user signed up through the API (no second factor); answers the address and the session cookie. */
async function newUser(tag: string) {
  const address = email(tag);
  const res = await world.api('/sign-up/email', { body: { name: tag, email: address, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { address, cookie: res.cookie as string };
}

/** The TOTP code an authenticator app shows for `secret` now (SHA-1, 6 digits, 30 s). */
const totp = (secret: string, stepOffset = 0) =>
  generate({
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    epoch: (Math.floor(Date.now() / 30_000) + stepOffset) * 30,
  });

/** A user whose second factor (TOTP) is on, through the API; answers its secret. */
async function userWithTotp(tag: string) {
  const { address, cookie } = await newUser(tag);
  const enabled = await world.api('/two-factor/enable', { body: { password: PASSWORD }, cookie });
  expect(enabled.status).toBe(200);
  const secret = new URL(enabled.body.totpURI).searchParams.get('secret') as string;
  // The code of the step before: the step the browser's sign-in uses next is then still unused.
  const verify = await world.api('/two-factor/verify-totp', { body: { code: await totp(secret, -1) }, cookie });
  expect(verify.status).toBe(200);
  return { address, secret };
}

async function signInWithPassword(page: Page, address: string) {
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return {
      tag: el?.tagName.toLowerCase(),
      label: el?.labels?.[0]?.textContent ?? el?.textContent ?? null,
      value: el?.value ?? null,
      describedBy: (el?.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? `missing ${id}`),
    };
  });

const passkeysOf = (address: string) =>
  world.query(
    'SELECT p.name FROM passkeys p JOIN users u ON u.id = p.user_id WHERE u.email = $1 ORDER BY p.created_at',
    [address],
  );

/** The user's sign-ins as the audit trail records them, oldest first: method and second factor. */
const signInsOf = (address: string) =>
  world.query(
    "SELECT e.details->>'method' AS method, e.details->>'secondFactor' AS factor FROM audit_events e JOIN users u ON u.id::text = e.target_id WHERE u.email = $1 AND e.type = 'user.signed_in' ORDER BY e.seq",
    [address],
  );

/** The passkeys section's status region (what was just done). */
const status = (page: Page) => page.locator('#passkeys-heading ~ .live[role="status"]');

describe('passkeys in the pages', () => {
  it('a user with TOTP adds a passkey on the security page, then signs in with it alone (button, then autofill) and no code is asked; renames it, removes it (asked first), and the passkey is then refused in words', async () => {
    const u = await userWithTotp('main');
    const page = await newPage();
    const device = await Authenticator.attach(page);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });

    // Signed in with the password and a code, on the security page.
    await page.goto(securityPage());
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=%2Fauth%2Fsecurity/);
    // The email field offers passkeys among its autofill suggestions.
    expect(await page.getByLabel('Email').getAttribute('autocomplete')).toBe('username webauthn');
    await signInWithPassword(page, u.address);
    await page.getByLabel('Code from the app').fill(await totp(u.secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(securityPage());
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();
    await checkPage(page, 'security passkeys none');

    // Add, cancelled and opened again: the focus goes back to the button, then to the name field.
    const add = page.getByRole('button', { name: 'Add a passkey' });
    await add.click();
    await page.getByRole('heading', { name: 'Add a passkey' }).waitFor();
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Name (optional)' });
    await page.getByRole('button', { name: 'Cancel' }).last().click();
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Add a passkey' });
    await add.click();
    await page.getByLabel('Name (optional)').fill('Work laptop');
    await checkPage(page, 'security passkey add');
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await expect
      .poll(() => status(page).textContent())
      .toBe('The passkey is added. You can sign in with it from now on.');
    expect(await activeElement(page)).toMatchObject({ tag: 'h2', label: 'Passkeys' });
    const row = page.locator('li.passkey');
    await expect.poll(() => row.allTextContents()).toHaveLength(1);
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date());
    expect(await row.locator('p').allTextContents()).toEqual(['Work laptop', `Added on ${today}`]);
    expect(await passkeysOf(u.address)).toEqual([{ name: 'Work laptop' }]);
    // The device holds it, discoverable, for the relying party of the pages' host.
    const held = await device.credentials();
    expect(held.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);
    await checkPage(page, 'security passkeys');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(page, 'security passkeys dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Signed out, back on the product, sent to sign in; the device away meanwhile (the email field's autofill waits
    // for a passkey), then back: the button signs in, and the product gets the browser, with no code asked.
    const credentials = await device.unplug();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(signInPage());
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    // The page has settled without a device (an autofill request, where Chromium offers one, keeps waiting when
    // the device is back); nothing signs in until the button is pressed.
    await page.waitForLoadState('networkidle');
    await device.plugBack(credentials);
    await page.waitForTimeout(500);
    expect(page.url()).toBe(signInPage());
    await checkPage(page, 'sign-in passkey');
    visited.length = 0;
    await button.click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    expect(visited.filter((url) => url.includes('/two-factor'))).toEqual([]);

    // Again, the device there from the start: the autofill's request is answered (the virtual authenticator answers
    // at once, as a user picking the passkey among the email field's suggestions) and signs in by itself.
    await page.goto(`${world.pages}/sign-out?callbackURL=${encodeURIComponent(product())}`);
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    expect(visited.filter((url) => url.includes('/sign-in?'))).toHaveLength(1);
    expect(visited.filter((url) => url.includes('/two-factor'))).toEqual([]);
    expect(await signInsOf(u.address)).toEqual([
      { method: 'sign-up', factor: null },
      { method: 'email', factor: 'totp' },
      { method: 'passkey', factor: null },
      { method: 'passkey', factor: null },
    ]);

    // Rename: cancelled (the focus back on its button), then done.
    await page.goto(securityPage());
    const rename = page.getByRole('button', { name: 'Rename', exact: true });
    await rename.click();
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Name', value: 'Work laptop' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Rename', describedBy: ['Work laptop'] });
    await rename.click();
    await page.getByLabel('Name', { exact: true }).fill('Old laptop');
    await checkPage(page, 'security passkey rename');
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent()).toBe('The passkey is renamed.');
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Rename', describedBy: ['Old laptop'] });
    expect(await passkeysOf(u.address)).toEqual([{ name: 'Old laptop' }]);

    // Remove: asked first; kept, then removed.
    const remove = page.getByRole('button', { name: 'Remove', exact: true });
    await remove.click();
    expect(await activeElement(page)).toMatchObject({ tag: 'p', label: 'Remove the passkey "Old laptop"?' });
    await checkPage(page, 'security passkey remove');
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Remove' });
    expect(await passkeysOf(u.address)).toHaveLength(1);
    await remove.click();
    await page.getByRole('button', { name: 'Remove the passkey' }).click();
    await expect.poll(() => status(page).textContent()).toBe('The passkey is removed.');
    await page.getByText('You have no passkeys yet.').waitFor();
    expect(await passkeysOf(u.address)).toEqual([]);

    // The device still holds it: the autofill's answer is refused, and so is the button's, in words.
    await page.goto(`${world.pages}/sign-out?callbackURL=${encodeURIComponent(signInPage())}`);
    await page.waitForURL(signInPage());
    const refused = 'Passkey not found. It may have been removed from your account.';
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe(refused);
    await button.click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe(refused);
    await page.waitForLoadState('networkidle');
    expect(page.url()).toBe(signInPage());
    expectRefusals('401 (Unauthorized)');
    await checkPage(page, 'sign-in passkey refused');
    await page.context().close();
  });

  it('a dismissed ceremony says nothing: adding a passkey and signing in (button and autofill) with the device failing to verify its user', async () => {
    const { address } = await newUser('cancel');
    const page = await newPage();
    const device = await Authenticator.attach(page, false);
    await page.goto(securityPage());
    await signInWithPassword(page, address);
    await page.waitForURL(securityPage());
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Name (optional)').fill('Phone');
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await page.waitForFunction(() => !document.querySelector('button[aria-busy="true"]'));
    // Still the form, nothing said, the name field focused to try again; nothing added.
    await page.getByRole('heading', { name: 'Add a passkey' }).waitFor();
    expect((await page.locator('[role="alert"], [role="status"]').allTextContents()).join('')).toBe('');
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Name (optional)', value: 'Phone' });
    expect(await passkeysOf(address)).toEqual([]);
    await device.verified(true);
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await expect
      .poll(() => status(page).textContent())
      .toBe('The passkey is added. You can sign in with it from now on.');

    await device.verified(false);
    await page.goto(`${world.pages}/sign-out?callbackURL=${encodeURIComponent(signInPage())}`);
    await page.waitForURL(signInPage());
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-busy')).toBe('false');
    await page.waitForLoadState('networkidle');
    // The sign-in page as it was: no alert, no error page, the button ready again and focused.
    expect(page.url()).toBe(signInPage());
    expect(await page.locator('[role="alert"]').textContent()).toBe('');
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Sign in with a passkey' });
    expect(await signInsOf(address)).toEqual([
      { method: 'sign-up', factor: null },
      { method: 'email', factor: null },
    ]);
    await checkPage(page, 'sign-in passkey cancelled');
    await page.context().close();
  });

  it('a session too old to add a passkey: said, with the way to sign in again and back, where adding then works', async () => {
    const { address } = await newUser('stale');
    const page = await newPage();
    await Authenticator.attach(page);
    await page.goto(securityPage());
    await signInWithPassword(page, address);
    await page.waitForURL(securityPage());
    await page.getByRole('button', { name: 'Add a passkey' }).waitFor();
    await world.query(
      "UPDATE sessions SET created_at = now() - interval '1 hour' WHERE user_id = (SELECT id FROM users WHERE email = $1)",
      [address],
    );
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await page.getByText('For your safety, this needs a recent sign-in.').waitFor();
    expect(await activeElement(page)).toMatchObject({ tag: 'a', label: 'Sign in again' });
    expectRefusals('403 (Forbidden)');
    await checkPage(page, 'security passkey stale');
    expect(await passkeysOf(address)).toEqual([]);
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=%2Fauth%2Fsecurity/);
    await signInWithPassword(page, address);
    await page.waitForURL(securityPage());
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await expect
      .poll(() => status(page).textContent())
      .toBe('The passkey is added. You can sign in with it from now on.');
    // No name given: the list says so.
    expect(await page.locator('li.passkey .passkey-name').allTextContents()).toEqual(['Passkey without a name']);
    expect(await passkeysOf(address)).toEqual([{ name: null }]);
    await page.context().close();
  });

  it('keyboard alone, in German, 320 px wide: sign in, add a passkey, rename and remove it', async () => {
    const { address } = await newUser('keys');
    const page = await newPage({ width: 320, height: 640 }, { locale: 'de-DE' });
    await Authenticator.attach(page);
    const fits = async (what: string) => {
      await shot(page, what);
      expect([what, await offscreenProblems(page)]).toEqual([what, []]);
      expect([what, await buttonProblems(page)]).toEqual([what, []]);
      expect([what, await axeProblems(page)]).toEqual([what, []]);
    };
    await page.goto(`${world.pages}/security`);
    await page.getByRole('heading', { name: 'Bei Acme anmelden' }).waitFor();
    await page.getByRole('button', { name: 'Mit einem Passkey anmelden' }).waitFor();
    await fits('sign-in-passkey-320');
    await page.keyboard.type(address);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Kontosicherheit' }).waitFor();
    await page.getByText('Sie haben noch keine Passkeys.').waitFor();

    /** Tab until the focus is on `label` (at most 15 presses), as a keyboard user reaches it. */
    const tabTo = async (label: string) => {
      for (let i = 0; i < 15 && (await activeElement(page)).label !== label; i++) await page.keyboard.press('Tab');
      expect(await activeElement(page)).toMatchObject({ label });
    };
    await tabTo('Passkey hinzufügen');
    await page.keyboard.press('Enter');
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Name (freiwillig)' });
    await page.keyboard.type('Laptop');
    await fits('security-passkey-add-320');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => status(page).textContent())
      .toBe('Der Passkey ist hinzugefügt. Ab jetzt können Sie sich damit anmelden.');
    expect(await activeElement(page)).toMatchObject({ tag: 'h2', label: 'Passkeys' });
    expect(await passkeysOf(address)).toEqual([{ name: 'Laptop' }]);
    await fits('security-passkeys-320');

    await tabTo('Umbenennen');
    await page.keyboard.press('Enter');
    expect(await activeElement(page)).toMatchObject({ tag: 'input', label: 'Name', value: 'Laptop' });
    await page.keyboard.type('Arbeitslaptop');
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent()).toBe('Der Passkey ist umbenannt.');
    expect(await passkeysOf(address)).toEqual([{ name: 'Arbeitslaptop' }]);

    await tabTo('Entfernen');
    await page.keyboard.press('Enter');
    expect(await activeElement(page)).toMatchObject({ tag: 'p', label: 'Passkey „Arbeitslaptop“ entfernen?' });
    await fits('security-passkey-remove-320');
    await page.keyboard.press('Tab');
    expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Passkey entfernen' });
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent()).toBe('Der Passkey ist entfernt.');
    expect(await passkeysOf(address)).toEqual([]);
    expect([world.pageErrors, world.consoleErrors]).toEqual([[], []]);
    await page.context().close();
  });
});

describe('the published client with passkeyClient()', () => {
  it('on a trusted origin: addPasskey, listUserPasskeys, signIn.passkey, deletePasskey, then the passkey is refused', async () => {
    const page = await newPage();
    await Authenticator.attach(page);
    await page.goto(`${clientOrigin}/`);
    await page.waitForFunction(() => 'auth' in window);
    const address = email('client');
    const outcome = await page.evaluate(
      async ({ address, password }) => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's client, put on window by its page
        const auth = (window as any).auth as import('./published-client').Auth;
        const steps: Record<string, unknown> = {};
        const signUp = await auth.signUp.email({ name: 'Client', email: address, password });
        steps.signUp = signUp.error ?? 'ok';
        const added = await auth.passkey.addPasskey({ name: 'Client key' });
        steps.added = added.error ?? { name: added.data?.name };
        const listed = await auth.passkey.listUserPasskeys();
        steps.listed = listed.error ?? listed.data?.map((p) => p.name);
        await auth.signOut();
        steps.signedOut = (await auth.getSession()).data;
        const signedIn = await auth.signIn.passkey();
        steps.signedIn = signedIn.error ?? (signedIn.data as { user: { email: string } }).user.email;
        steps.session = (await auth.getSession()).data?.user.email;
        const id = added.data?.id as string;
        const renamed = await auth.passkey.updatePasskey({ id, name: 'Renamed key' });
        steps.renamed = renamed.error ?? renamed.data?.passkey.name;
        const deleted = await auth.passkey.deletePasskey({ id });
        steps.deleted = deleted.error ?? deleted.data;
        steps.after = (await auth.passkey.listUserPasskeys()).data;
        await auth.signOut();
        const again = await auth.signIn.passkey();
        steps.again = again.data ?? { status: again.error?.status, code: (again.error as { code?: string }).code };
        return steps;
      },
      { address, password: PASSWORD },
    );
    expect(outcome).toEqual({
      signUp: 'ok',
      added: { name: 'Client key' },
      listed: ['Client key'],
      signedOut: null,
      signedIn: address,
      session: address,
      renamed: 'Renamed key',
      deleted: { status: true },
      after: [],
      again: { status: 401, code: 'PASSKEY_NOT_FOUND' },
    });
    // The ceremonies ran on the client's origin, which the relying party accepts as one of the trusted ones.
    expect(await signInsOf(address)).toEqual([
      { method: 'sign-up', factor: null },
      { method: 'passkey', factor: null },
    ]);
    expectRefusals('401 (Unauthorized)');
    await page.context().close();
  });
});

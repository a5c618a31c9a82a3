import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/world';
import { type ApacheOidc, apacheRedirectUri, startApacheOidc } from '../../services/identity/test/setup/apache-oidc';
import { start, type World } from './harness';
import { browserSteps } from './steps';

/**
 * The service as an OpenID Provider (docs/oidc-provider.md) for a relying party none of our code implements:
 * Apache httpd with Debian's mod_auth_openidc protects a page; a person in headless Chromium opens it, signs in on
 * the hosted pages (with a second factor too), sees the page as themselves, and signs out of both through
 * RP-initiated logout.
 */
let world: World;
let apache: ApacheOidc;
let configDir: string;
const PASSWORD = 'Pages-pass-123!';
const CLIENT_ID = 'intranet';
const CLIENT_SECRET = randomBytes(24).toString('hex');
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@rp-e2e.test`;

beforeAll(async () => {
  const port = await freePort();
  configDir = mkdtempSync(join(tmpdir(), 'rp-e2e-'));
  const clientsFile = join(configDir, 'clients.json');
  writeFileSync(
    clientsFile,
    JSON.stringify({
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          client_name: 'Intranet',
          redirect_uris: [apacheRedirectUri(port)],
          post_logout_redirect_uris: [`http://127.0.0.1:${port}/logged-out.html`],
          grant_types: ['authorization_code', 'refresh_token'],
          first_party: true,
        },
      ],
    }),
  );
  world = await start({ OIDC_PROVIDER_ENABLED: 'true', OIDC_CLIENTS_FILE: clientsFile });
  apache = await startApacheOidc({
    port,
    discoveryUrl: `${world.apiOrigin}/api/auth/.well-known/openid-configuration`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
  });
});
afterAll(async () => {
  await apache?.stop();
  await world?.stop();
  rmSync(configDir, { recursive: true, force: true });
});
const { newPage } = browserSteps(() => world);

async function signUp(tag: string) {
  const address = email(tag);
  const res = await world.api('/sign-up/email', { body: { name: tag, email: address, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { address, id: res.body.user.id as string, cookie: res.cookie as string };
}

async function signInWithPassword(page: Page, address: string) {
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The protected page as the browser shows it: who mod_auth_openidc says is signed in. */
async function shownUser(page: Page) {
  await page.waitForURL(apache.protectedUrl);
  return { sub: await page.locator('#sub').textContent(), email: await page.locator('#email').textContent() };
}

describe('Apache mod_auth_openidc signs people in through the service', () => {
  it('a signed-out person opens the page, signs in on the hosted pages and sees it as themselves', async () => {
    const u = await signUp('apache');
    const page = await newPage();
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await signInWithPassword(page, u.address);
    expect(await shownUser(page)).toEqual({ sub: u.id, email: u.address });
    expect(apache.errorLog()).not.toMatch(/auth_openidc:error/);
    await page.context().close();
  });

  it('with a second factor: the code step comes between, and the page opens after it', async () => {
    const u = await signUp('apache-totp');
    const enabled = await world.api('/two-factor/enable', { body: { password: PASSWORD }, cookie: u.cookie });
    expect(enabled.status).toBe(200);
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret') as string;
    const codeAt = (step: number) => generate({ secret, algorithm: 'sha1', digits: 6, period: 30, epoch: step * 30 });
    const step = Math.floor(Date.now() / 30_000);
    const verified = await world.api('/two-factor/verify-totp', {
      body: { code: await codeAt(step - 1) },
      cookie: u.cookie,
    });
    expect(verified.status).toBe(200);
    const page = await newPage();
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await signInWithPassword(page, u.address);
    await page.waitForURL(/\/auth\/two-factor\?callbackURL=/);
    // the next time step: the service takes each step once and never an earlier one
    await page.getByLabel('Code from the app').fill(await codeAt(Math.max(step, Math.floor(Date.now() / 30_000))));
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(await shownUser(page)).toEqual({ sub: u.id, email: u.address });
    await page.context().close();
  });

  it('a person already signed in to the service is not asked again', async () => {
    const u = await signUp('apache-sso');
    const page = await newPage();
    // signed in at the product first, through the hosted sign-in page
    await page.goto(`${world.pages}/sign-in?callbackURL=${encodeURIComponent(`${world.productOrigin}/`)}`);
    await signInWithPassword(page, u.address);
    await page.getByText(`Signed in as ${u.address}`).waitFor();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto(apache.protectedUrl);
    expect(await shownUser(page)).toEqual({ sub: u.id, email: u.address });
    expect(visited.filter((url) => url.includes('/auth/sign-in'))).toEqual([]);
    await page.context().close();
  });

  it("RP-initiated logout ends the application's session and the service's, and returns to the registered page", async () => {
    const u = await signUp('apache-logout');
    const page = await newPage();
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await signInWithPassword(page, u.address);
    expect(await shownUser(page)).toEqual({ sub: u.id, email: u.address });

    await page.goto(apache.logoutUrl(apache.loggedOutUrl));
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(apache.loggedOutUrl);
    await page.getByText('signed out of the app').waitFor();
    // the service's session is over in this browser
    const session = await (await page.goto(`${world.apiOrigin}/api/auth/get-session`))?.text();
    expect(session).toBe('null');
    // and the page asks for a sign-in again
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await page.context().close();
  });
});

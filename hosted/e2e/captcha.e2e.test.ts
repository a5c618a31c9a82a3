import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeProblems, buttonProblems, offscreenProblems } from '../../e2e/page-checks';
import { VerifierServer } from '../../services/identity/test/api/captcha/verifier-server';
import { type FakeWidget, startFakeWidget } from './fake-captcha';
import { start, type World } from './harness';

/**
 * The bot check through the pages: the service demands a Turnstile token on sign-up, sign-in and reset requests
 * (CAPTCHA_PROVIDER); the pages load the widget named by config.json (here the loopback stand-in of
 * fake-captcha.ts, CAPTCHA_SCRIPT_URL), send its token in the header the service reads, and the service asks the
 * loopback siteverify server, which passes it or refuses it.
 */
let world: World;
let verifier: VerifierServer;
let widget: FakeWidget;
const SECRET = 'e2e-captcha-secret';
const SITE_KEY = 'e2e-site-key';
const PASSWORD = 'Captcha-pass-123!';
const SHOTS = join(import.meta.dirname, 'output');
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@captcha-e2e.test`;
const robotCheck = (page: Page) => page.getByRole('checkbox', { name: 'I am not a robot' });

beforeAll(async () => {
  verifier = await new VerifierServer().start();
  widget = await startFakeWidget();
  world = await start({
    CAPTCHA_PROVIDER: 'cloudflare-turnstile',
    CAPTCHA_SECRET_KEY: SECRET,
    CAPTCHA_SITE_KEY: SITE_KEY,
    CAPTCHA_SITE_VERIFY_URL: verifier.url,
    CAPTCHA_SCRIPT_URL: widget.url,
    CAPTCHA_TIMEOUT_MS: '5000',
  });
});
afterAll(async () => {
  await world?.stop();
  await widget?.stop();
  await verifier?.stop();
});
beforeEach(() => {
  verifier.mode = 'success';
  verifier.requests.length = 0;
});

/** A user made through the sign-up page, ticking the widget (the API alone would need a token too). */
async function signUpThroughPages(page: Page, address: string) {
  await page.goto(`${world.pages}/sign-up`);
  await page.getByLabel('Name').fill('Captcha User');
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await robotCheck(page).check();
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('heading', { name: 'Check your mailbox' }).waitFor();
}

describe('bot check on the hosted pages', () => {
  it('config.json names the provider, the site key and the script, never the secret; the CSP allows only them', async () => {
    const res = await fetch(`${world.pages}/config.json`);
    const text = await res.text();
    expect(JSON.parse(text).captcha).toEqual({
      provider: 'cloudflare-turnstile',
      siteKey: SITE_KEY,
      scriptUrl: widget.url,
      endpoints: ['/sign-up/email', '/sign-in/email', '/request-password-reset', '/forget-password'],
    });
    expect(text).not.toContain(SECRET);
    const csp = (await fetch(`${world.pages}/sign-in`)).headers.get('content-security-policy') ?? '';
    const widgetOrigin = new URL(widget.url).origin;
    expect(csp).toContain(`script-src 'self' https://challenges.cloudflare.com ${widgetOrigin};`);
    expect(csp).toContain(`frame-src https://challenges.cloudflare.com ${widgetOrigin};`);
    expect(csp).toContain("connect-src 'self';");
  });

  it('sign-up, then sign-in from the product: the widget token goes with each call and the service verifies it', async () => {
    const address = email('pass');
    const first = await world.newPage();
    await signUpThroughPages(first, address);
    expect(verifier.requests.map((r) => [r.fields.secret, r.fields.response])).toEqual([[SECRET, 'fake-token-1']]);
    // The script was asked for explicit rendering, with the ready callback.
    expect(widget.requests.at(-1)?.get('render')).toBe('explicit');
    expect(widget.requests.at(-1)?.get('onload')).toBe('hostedPagesCaptchaReady');
    await first.context().close();
    verifier.requests.length = 0;

    const page = await world.newPage();
    await page.goto(`${world.productOrigin}/`);
    await page.waitForURL(/\/auth\/sign-in\?callbackURL=/);
    await robotCheck(page).waitFor();
    expect(await page.locator('.captcha [data-sitekey]').getAttribute('data-sitekey')).toBe(SITE_KEY);
    await page.screenshot({ path: join(SHOTS, 'sign-in-captcha.png'), fullPage: true, animations: 'disabled' });
    expect(await axeProblems(page)).toEqual([]);
    expect(await offscreenProblems(page)).toEqual([]);
    expect(await buttonProblems(page)).toEqual([]);
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(PASSWORD);
    // Not ticked yet: the page says so and sends nothing.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Complete the check that you are not a robot first.');
    expect(verifier.requests).toEqual([]);
    await robotCheck(page).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${world.productOrigin}/`);
    await page.getByText(`Signed in as ${address}`).waitFor();
    // One token, from this page's widget (its first), verified once.
    expect(verifier.requests.map((r) => r.fields.response)).toEqual(['fake-token-1']);
    expect([world.pageErrors, world.consoleErrors]).toEqual([[], []]);
    await page.context().close();
  });

  it('a refusing verify endpoint: the catalogue message, the widget asks again, and a new token then passes', async () => {
    const address = email('refused');
    const setup = await world.newPage();
    await signUpThroughPages(setup, address);
    await setup.context().close();
    verifier.requests.length = 0;
    verifier.mode = 'failure';

    const page = await world.newPage(undefined, { locale: 'de-DE' });
    await page.goto(`${world.pages}/sign-in?callbackURL=${encodeURIComponent(`${world.productOrigin}/`)}`);
    await page.getByLabel('E-Mail').fill(address);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await robotCheck(page).check();
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Die Prüfung, dass Sie kein Roboter sind, ist fehlgeschlagen.');
    // The refused token is spent: the widget was reset for a new one.
    expect(await robotCheck(page).isChecked()).toBe(false);
    expect(verifier.requests).toHaveLength(1);
    expect(world.consoleErrors.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 403 (Forbidden)',
    ]);
    await page.screenshot({ path: join(SHOTS, 'sign-in-captcha-refused.png'), fullPage: true, animations: 'disabled' });
    expect(await axeProblems(page)).toEqual([]);

    verifier.mode = 'success';
    await robotCheck(page).check();
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${world.productOrigin}/`);
    await page.getByText(`Signed in as ${address}`).waitFor();
    await page.context().close();
  });

  it('forgot password sends its token too; 320 px wide the widget is the compact one and fits', async () => {
    const page = await world.newPage({ width: 320, height: 700 });
    await page.goto(`${world.pages}/forgot-password`);
    await robotCheck(page).waitFor();
    expect(await page.locator('.captcha [data-size]').getAttribute('data-size')).toBe('compact');
    expect(await offscreenProblems(page)).toEqual([]);
    await page.getByLabel('Email').fill(email('forgot'));
    await robotCheck(page).check();
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('If this email exists in our system').waitFor();
    expect(verifier.requests).toHaveLength(1);
    await page.context().close();
  });
});

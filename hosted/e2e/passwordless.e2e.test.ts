import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailLink, mailMatch } from '../../e2e/world';
import { start, type World } from './harness';
import { browserSteps } from './steps';

/**
 * Passwordless sign-in in the hosted pages (docs/passwordless.md), in headless Chromium against the real service and
 * its mail worker: "Email me a link" on the sign-in page, the mailed link opening the page that signs in on a click
 * (a mail scanner fetching it first spends nothing), the link refused in another browser and after its use, a new
 * user's link landing at `newUserCallbackURL`; and "Email me a code": the six digits from the mail, a wrong code
 * refused first.
 */
let world: World;
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@passwordless-e2e.test`;
const product = () => `${world.productOrigin}/`;

beforeAll(async () => {
  world = await start({ MAGIC_LINK_ENABLED: 'true', MAGIC_LINK_SIGN_UP: 'true', EMAIL_OTP_ENABLED: 'true' });
});
afterAll(async () => {
  await world?.stop();
});
const { newPage, checkPage, expectRefusals } = browserSteps(() => world);

async function account(tag: string) {
  const address = email(tag);
  const res = await world.api('/sign-up/email', { body: { name: tag, email: address, password: 'Pages-pass-123!' } });
  expect(res.status).toBe(200);
  return address;
}

const linkTo = (address: string) =>
  mailLink(world.mailSink, address, /http:\/\/127\.0\.0\.1:\d+\/auth\/magic-link\?\S+/).then((l) =>
    l.replaceAll('&amp;', '&'),
  );

describe('magic link in the hosted pages', () => {
  it('Email me a link → the mail → a scanner fetches it → one click signs in and returns to the product', async () => {
    const address = await account('link');
    const page = await newPage();
    await page.goto(`${world.pages}/sign-in?callbackURL=${encodeURIComponent(product())}`);
    await page.getByRole('link', { name: 'Email me a link' }).click();
    await page.waitForURL(/\/auth\/magic-link/);
    await checkPage(page, 'magic-link-ask');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText(`If ${address} can sign in here, a link is on its way.`).waitFor();
    await checkPage(page, 'magic-link-sent');

    const link = await linkTo(address);
    expect(new URL(link).searchParams.get('callbackURL')).toBe(product());
    // A mail scanner: fetches the link (and runs its page) but never presses anything.
    expect((await fetch(link)).status).toBe(200);
    const scanner = await newPage();
    await scanner.goto(link);
    await scanner.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    await scanner.close();

    await page.goto(link);
    await page.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    // the token leaves the address bar at once
    expect(page.url()).not.toContain('token=');
    await checkPage(page, 'magic-link-confirm');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${address}`).waitFor();

    // used: the same link again says so
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This link has expired or has already been used.').waitFor();
    expectRefusals('400 (Bad Request)');
    await checkPage(page, 'magic-link-used');
  });

  it('a link opened in another browser is refused there, and still signs in where it was asked for', async () => {
    const address = await account('elsewhere');
    const page = await newPage();
    await page.goto(`${world.pages}/magic-link?callbackURL=${encodeURIComponent(product())}`);
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText('a link is on its way', { exact: false }).waitFor();
    const link = await linkTo(address);

    const other = await newPage({ width: 320, height: 640 });
    await other.goto(link);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByText('This link was asked for in another browser.', { exact: false }).waitFor();
    expectRefusals('403 (Forbidden)');
    await checkPage(other, 'magic-link-other-browser-320');

    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${address}`).waitFor();
  });
});

describe('magic link for a new user in the hosted pages', () => {
  it('a link that registers its address lands at newUserCallbackURL, an existing account’s at callbackURL', async () => {
    const welcome = `${world.productOrigin}/?welcome=1`;
    const query = `callbackURL=${encodeURIComponent(product())}&newUserCallbackURL=${encodeURIComponent(welcome)}`;
    const cases: Array<[string, string]> = [
      [email('newcomer'), welcome],
      [await account('returning'), product()],
    ];
    for (const [address, lands] of cases) {
      const page = await newPage();
      await page.goto(`${world.pages}/magic-link?${query}`);
      await page.getByLabel('Email').fill(address);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page.getByText('a link is on its way', { exact: false }).waitFor();
      const link = await linkTo(address);
      expect(new URL(link).searchParams.get('newUserCallbackURL')).toBe(welcome);
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(lands);
      await page.getByText(`Signed in as ${address}`).waitFor();
      await page.close();
    }
  });

  it('a newUserCallbackURL the service would refuse sends the browser to the error page', async () => {
    const page = await newPage();
    await page.goto(`${world.pages}/magic-link?newUserCallbackURL=${encodeURIComponent('https://evil.example/')}`);
    await page.waitForURL(/\/auth\/error\?error=INVALID_CALLBACK_URL/);
    await page.locator('#error-code').getByText('INVALID_CALLBACK_URL').waitFor();
  });
});

describe('email code in the hosted pages', () => {
  it('Email me a code → the code from the mail (a wrong one refused first) → signed in at the product', async () => {
    const address = await account('code');
    const page = await newPage();
    await page.goto(`${world.pages}/sign-in?callbackURL=${encodeURIComponent(product())}`);
    await checkPage(page, 'sign-in-passwordless');
    await page.getByRole('link', { name: 'Email me a code' }).click();
    await page.waitForURL(/\/auth\/email-code/);
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByText(`If ${address} can sign in here, a code is on its way.`).waitFor();
    await checkPage(page, 'email-code-sent');
    const code = (await mailMatch(world.mailSink, address, /\b(\d{6})\b/))[1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('Code from the email').fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This code is not right, or it was already used.').waitFor();
    expectRefusals('400 (Bad Request)');
    await checkPage(page, 'email-code-wrong');
    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(product());
    await page.getByText(`Signed in as ${address}`).waitFor();
  });
});

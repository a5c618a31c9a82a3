import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from '../../e2e/page-checks';
import { freePort, mailLink, ROOT } from '../../e2e/world';
import { start, type World } from './harness';

/**
 * The pages as static files on a CDN (docs/hosted-pages.md): a copy of hosted/dist served by a plain static server
 * on another loopback origin, its config.json naming the service's API and, in `source`, the service's own file.
 * The service trusts that origin (TRUSTED_ORIGINS); the copy signs in against it, returns to the product, refuses
 * what the service refuses, and the mailed reset link leads back to the copy.
 */
let world: World;
let cdnOrigin: string;
let cdn: Server;
let copy: string;
const PASSWORD = 'Cdn-pass-123!';
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@cdn-e2e.test`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * What any static host does: the file when there is one, index.html for every other path without an extension
 * (the pages' routes), the pages' security headers with the service's origin in connect-src.
 */
function staticHost(root: string, apiOrigin: string): Server {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${apiOrigin}`,
    "frame-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://cdn').pathname));
    let file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
      if (extname(path)) return void response.writeHead(404).end();
      file = join(root, 'index.html');
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(readFileSync(file));
  });
}

beforeAll(async () => {
  const cdnPort = await freePort();
  cdnOrigin = `http://127.0.0.1:${cdnPort}`;
  world = await start({}, [cdnOrigin]);
  // The build the harness made, copied as a deployment would, with the copy's own config.json.
  copy = mkdtempSync(join(tmpdir(), 'hosted-cdn-'));
  cpSync(join(ROOT, 'hosted', 'dist'), copy, { recursive: true });
  writeFileSync(
    join(copy, 'config.json'),
    JSON.stringify({ api: `${world.apiOrigin}/api/auth`, source: `${world.pages}/config.json` }),
  );
  cdn = staticHost(copy, world.apiOrigin);
  await new Promise<void>((res) => cdn.listen(cdnPort, '127.0.0.1', res));
});
afterAll(async () => {
  if (cdn) await new Promise<void>((res) => cdn.close(() => res()));
  await world?.stop();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a static copy of the pages on another origin', () => {
  it('signs in against the service and returns to the product, signed in', async () => {
    const address = email('cdn');
    expect(
      (await world.api('/sign-up/email', { body: { name: 'Cdn', email: address, password: PASSWORD } })).status,
    ).toBe(200);
    const page = await world.newPage();
    await page.goto(`${cdnOrigin}/sign-in?callbackURL=${encodeURIComponent(`${world.productOrigin}/`)}`);
    // The product name comes from the service's config.json (source): the copy's own names none.
    await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${world.productOrigin}/`);
    await page.getByText(`Signed in as ${address}`).waitFor();
    // Signed in: the copy's sign-in page sends the browser straight back too.
    await page.goto(`${cdnOrigin}/sign-in?callbackURL=${encodeURIComponent(`${world.productOrigin}/`)}`);
    await page.waitForURL(`${world.productOrigin}/`);
    expect([world.pageErrors, world.consoleErrors]).toEqual([[], []]);
    await page.context().close();
  });

  it("refuses a callback the service refuses (the service's verdict, read through source)", async () => {
    const page = await world.newPage();
    await page.goto(`${cdnOrigin}/sign-in?callbackURL=${encodeURIComponent('https://evil.example/steal')}`);
    await page.getByRole('heading', { name: 'You were not sent back' }).waitFor();
    expect(await page.locator('#error-code').textContent()).toBe('INVALID_CALLBACK_URL');
    expect(new URL(page.url()).origin).toBe(cdnOrigin);
    expect(world.blocked.filter((u) => u.includes('evil.example'))).toEqual([]);
    expect(await axeProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('forgot password from the copy: the mailed link leads back to the copy, whose reset page sets the password', async () => {
    const address = email('cdn-reset');
    await world.api('/sign-up/email', { body: { name: 'Cdn', email: address, password: PASSWORD } });
    const page = await world.newPage();
    await page.goto(`${cdnOrigin}/forgot-password`);
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('If this email exists in our system').waitFor();
    const link = await mailLink(world.mailSink, address, /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/reset-password\/\S+/);
    expect(new URL(link).searchParams.get('callbackURL')).toBe(`${cdnOrigin}/reset-password`);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(page.url()).toBe(`${cdnOrigin}/reset-password`);
    await page.getByLabel('New password').fill('Cdn-other-456!');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    const signIn = await world.api('/sign-in/email', { body: { email: address, password: 'Cdn-other-456!' } });
    expect(signIn.status).toBe(200);
    await page.context().close();
  });
});

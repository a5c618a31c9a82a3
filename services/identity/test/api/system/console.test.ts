import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_CSP } from '../../../src/infra/console';
import { startTestApp, type TestApp } from '../../setup/app';

/** the identity service serves the built console at /console when enabled (off by default). */
const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><html><head><base href="/" /><title>Console</title><script type="module" src="./assets/app-1a2b.js"></script></head><body></body></html>',
);
writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("bundle");');
writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(dir, '.env'), 'SECRET=1');

/** HOSTED_PAGES_PRODUCT_NAME with every character an HTML attribute must escape. */
const PRODUCT = 'Acme "Cloud" <&> Ops';

let on: TestApp;
afterAll(async () => {
  await on?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('console serving', () => {
  it('is off by default: /console is not found', async () => {
    const off = await startTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/console/' });
      expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
    } finally {
      await off.close();
    }
  });

  it('refuses to start when the directory holds no index.html, naming the setting', async () => {
    await expect(startTestApp({}, { CONSOLE_ENABLED: 'true', CONSOLE_DIR: join(dir, 'assets') })).rejects.toThrow(
      /CONSOLE_DIR: .*has no index\.html/,
    );
  });

  describe('enabled', () => {
    beforeAll(async () => {
      on = await startTestApp({}, { CONSOLE_ENABLED: 'true', CONSOLE_DIR: dir, HOSTED_PAGES_PRODUCT_NAME: PRODUCT });
    });
    const fetchPath = (url: string) => on.app.inject({ method: 'GET', url });

    it('serves index.html with the base and API meta, revalidated every time, under the console CSP', async () => {
      const res = await fetchPath('/console/');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<base href="/console/" />');
      expect(res.body).not.toContain('<base href="/" />');
      expect(res.body).toContain('<meta name="identity-api" content="/api/auth" />');
      // The product's name for the sign-in screen, the hosted pages' setting, as an attribute value.
      expect(res.body).toContain('<meta name="identity-product" content="Acme &quot;Cloud&quot; &lt;&amp;&gt; Ops" />');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it('/console redirects to /console/ (relative asset URLs need the slash)', async () => {
      const res = await fetchPath('/console');
      expect([res.statusCode, res.headers.location]).toEqual([301, '/console/']);
    });

    it('hashed assets are cached for a year; other files are revalidated', async () => {
      const asset = await fetchPath('/console/assets/app-1a2b.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log("bundle");');
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const icon = await fetchPath('/console/favicon.svg');
      expect([icon.statusCode, icon.headers['cache-control']]).toEqual([200, 'no-cache']);
    });

    it('a client-side route falls back to index.html; a missing file is a 404', async () => {
      const route = await fetchPath('/console/users/123/show');
      expect(route.statusCode).toBe(200);
      expect(route.body).toContain('<base href="/console/" />');
      const missing = await fetchPath('/console/assets/gone-0000.js');
      expect([missing.statusCode, missing.json().code]).toEqual([404, 'NOT_FOUND']);
    });

    it('never serves dotfiles or anything outside the directory', async () => {
      expect((await fetchPath('/console/.env')).body).not.toContain('SECRET');
      for (const url of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/..%2fpackage.json']) {
        const res = await fetchPath(url);
        expect(res.body).not.toContain('"name"');
      }
    });

    it('the API keeps its own headers', async () => {
      const res = await fetchPath('/api/auth/ok');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    });
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { type Chromium, Cleanups, freePort, launchChromium, ROOT, type Service, startService } from '../../e2e/world';
import { type LoopbackOidc, startOidcProvider } from '../../services/identity/test/setup/oidc-provider';

/**
 * The hosted pages' e2e world (e2e/world.ts, shared with the console's): the REAL identity service serving the
 * built pages at /auth, its mail worker sending over SMTP to the sink on loopback that e2e/world.ts starts, the
 * service tests' loopback OpenID provider configured as the social provider `corp`, a product page on another
 * trusted origin, and headless Chromium.
 */
const HOSTED = join(ROOT, 'hosted');

/**
 * `vite build` as `npm run build -w hosted` runs it. Vitest sets NODE_ENV=test, which vite would carry into the
 * bundle (React's development build, twice the size): the pages under test are the production ones.
 */
async function buildPages() {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: HOSTED, logLevel: 'warn', configFile: join(HOSTED, 'vite.config.ts') });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

export interface World extends Service, Chromium {
  /** The product's origin (trusted by the service): its page at "/" sends signed-out visitors to the sign-in page. */
  productOrigin: string;
  /** The hosted pages' base: `<service origin>/auth`. */
  pages: string;
  /** The social provider `corp` ("Corp SSO"): who signs in there is `oidc.defaultLogin`, a key of `oidc.users`. */
  oidc: LoopbackOidc;
  stop(): Promise<void>;
}

/**
 * The product's page: it asks the service who is signed in (CORS, with the service's cookies) and sends a visitor
 * nobody is signed in as to the hosted sign-in page, to come back here; a signed-in one is greeted by email.
 */
function productPage(apiOrigin: string, productOrigin: string): string {
  const signIn = `${apiOrigin}/auth/sign-in?callbackURL=${encodeURIComponent(`${productOrigin}/`)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head><body><main><h1>Product</h1><p id="who">…</p></main>
<script>
fetch(${JSON.stringify(`${apiOrigin}/api/auth/get-session`)}, { credentials: 'include' })
  .then((r) => r.json())
  .then((s) => {
    if (!s || !s.user) window.location.assign(${JSON.stringify(signIn)});
    else document.getElementById('who').textContent = 'Signed in as ' + s.user.email;
  });
</script></body></html>`;
}

/**
 * Starts the world; `env` adds or overrides the service's settings, `trust` adds origins to TRUSTED_ORIGINS
 * besides the product's (a CDN copy of the pages). `host` names the loopback host the browser reaches the service
 * and the product by: `127.0.0.1` by default, `localhost` for WebAuthn (a relying party id must be a domain; the
 * browser refuses an IP address). `defaults` names settings this world leaves at the service's own default (the
 * world otherwise sets them for its tests, e.g. `SEND_VERIFICATION_ON_SIGN_UP=true`).
 */
export async function start(
  env: Record<string, string> = {},
  trust: string[] = [],
  { host = '127.0.0.1', defaults = [] }: { host?: '127.0.0.1' | 'localhost'; defaults?: string[] } = {},
): Promise<World> {
  const cleanups = new Cleanups();
  const stop = () => cleanups.run();
  try {
    await buildPages();
    const [apiPort, productPort] = [await freePort(), await freePort()];
    const apiOrigin = `http://${host}:${apiPort}`;
    const productOrigin = `http://${host}:${productPort}`;
    const oidc = await startOidcProvider([
      {
        clientId: 'hosted-e2e',
        clientSecret: 'hosted-e2e-secret',
        redirectUris: [`${apiOrigin}/api/auth/callback/corp`],
      },
    ]);
    cleanups.add(() => oidc.close());
    const configDir = mkdtempSync(join(tmpdir(), 'hosted-e2e-config-'));
    cleanups.add(() => rmSync(configDir, { recursive: true, force: true }));
    const configFile = join(configDir, 'config.json');
    const corp = { type: 'oidc', discoveryUrl: oidc.issuer, clientId: 'hosted-e2e', displayName: 'Corp SSO' };
    writeFileSync(configFile, JSON.stringify({ social: { providers: { corp } } }));
    const settings: Record<string, string> = {
      TRUSTED_ORIGINS: [productOrigin, ...trust].join(','),
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: join(HOSTED, 'dist'),
      HOSTED_PAGES_PRODUCT_NAME: 'Acme',
      HOSTED_PAGES_SUPPORT_URL: `${productOrigin}/help`,
      HOSTED_PAGES_HOME_URL: `${productOrigin}/`,
      SEND_VERIFICATION_ON_SIGN_UP: 'true',
      MAIL_MAX_PER_ADDRESS_PER_HOUR: '0',
      // No session is fresh: deleting an account always goes through the mailed confirmation link.
      SESSION_FRESH_AGE_SEC: '0',
      CONFIG_FILE: configFile,
      SOCIAL_CORP_CLIENT_SECRET: 'hosted-e2e-secret',
      ...env,
    };
    for (const name of defaults) delete settings[name];
    const service = await startService(cleanups, {
      name: 'hosted_e2e',
      apiPort,
      publicUrl: apiOrigin,
      apiVia: apiOrigin,
      env: settings,
    });
    service.startMailWorker();
    const product: Server = createServer((request, response) => {
      if (request.url === '/' || request.url?.startsWith('/?')) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(productPage(apiOrigin, productOrigin));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((res) => product.listen(productPort, '127.0.0.1', res));
    cleanups.add(() => new Promise<void>((res) => product.close(() => res())));
    const chromium = await launchChromium(cleanups);
    return { ...service, ...chromium, apiOrigin, productOrigin, pages: `${apiOrigin}/auth`, oidc, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

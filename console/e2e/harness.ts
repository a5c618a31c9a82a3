import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { type ApiReply, Cleanups, freePort, launchChromium, ROOT, type SmtpSink, startService } from '../../e2e/world';

export type { ApiReply };

/**
 * The e2e world: a REAL identity service (e2e/world.ts, shared with the hosted pages' tests) and the built
 * console served by `vite preview` on one origin that proxies /api to the service; headless Debian Chromium
 * drives it. Everything is torn down in stop().
 */
const CONSOLE = join(ROOT, 'console');

export const ADMIN = { email: 'root@console-e2e.test', password: 'Admin-pass-123!', name: 'Root Admin' };
/**
 * The product's address the console is built with (VITE_PRODUCT_URL; the impersonation banner links to it). Nothing
 * listens there: the scenarios read the link, they do not follow it.
 */
export const PRODUCT_URL = process.env.VITE_PRODUCT_URL ?? 'http://127.0.0.1:9/app/';

export interface World {
  /** The console as its own origin (vite preview, /api proxied to the service). */
  origin: string;
  /** The identity service's own origin: the API, and the console it serves at /console. */
  apiOrigin: string;
  /** A second copy of the built console on its own trusted origin, calling the API origin directly (CORS). */
  crossOrigin: string;
  apiPort: number;
  browser: Browser;
  /** POST/GET against the API from Node with a trusted Origin; `cookie` to act as a signed-in user. */
  api(path: string, init?: { method?: string; body?: unknown; cookie?: string }): Promise<ApiReply>;
  signIn(email: string, password: string): Promise<ApiReply>;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** The SMTP sink on loopback the service sends its mail to, once the mail worker runs (startMailWorker). */
  mailSink: SmtpSink;
  /** Starts the mail worker (the service only queues mail): from then on queued mails reach mailSink over SMTP. */
  startMailWorker(): void;
  /**
   * Starts the worker, which also delivers webhooks (with Redis the API only queues them, docs/webhooks.md). The
   * service runs with NODE_ENV=test, where webhook URLs may be http and reach loopback: a receiver the scenario
   * starts on 127.0.0.1 is allowed, as in the service's own webhook tests (WEBHOOK_ALLOWED_TARGETS is for
   * production). The same process as startMailWorker: starting both starts one.
   */
  startWorker(): void;
  /** One SQL statement on the run's database (test set-up only, e.g. marking an email verified). */
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  pageErrors: string[];
  /** Every console error the pages printed (a CSP violation would show here). */
  consoleErrors: string[];
  blocked: string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** More settings of the service (e.g. a policy switched on for one file). */
  env?: Record<string, string>;
}

export async function start(options: StartOptions = {}): Promise<World> {
  const cleanups = new Cleanups();
  const stop = () => cleanups.run();
  try {
    // 1. The console build (the service is built by startService, unless E2E_REUSE_DIST=1).
    process.env.VITE_PRODUCT_URL = PRODUCT_URL;
    await build({ root: CONSOLE, logLevel: 'warn', configFile: join(CONSOLE, 'vite.config.ts') });

    // 2. The service, on its own port, trusting the console's origins, and serving the built console at /console.
    const [apiPort, consolePort, crossPort] = [await freePort(), await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${consolePort}`;
    const apiOrigin = `http://127.0.0.1:${apiPort}`;
    const crossOrigin = `http://127.0.0.1:${crossPort}`;
    const service = await startService(cleanups, {
      name: 'console_e2e',
      apiPort,
      publicUrl: origin,
      apiVia: origin,
      env: {
        TRUSTED_ORIGINS: `${apiOrigin},${crossOrigin}`,
        CONSOLE_ENABLED: 'true',
        CONSOLE_DIR: join(CONSOLE, 'dist'),
        ...options.env,
      },
      beforeStart: (cli) =>
        cli(['create-admin', '--email', ADMIN.email, '--password', ADMIN.password, '--name', ADMIN.name]),
    });

    // 3. The built console with /api proxied to the service: one origin.
    const server: PreviewServer = await preview({
      root: CONSOLE,
      configFile: false,
      logLevel: 'warn',
      build: { outDir: join(CONSOLE, 'dist') },
      preview: {
        host: '127.0.0.1',
        port: consolePort,
        strictPort: true,
        proxy: { '/api': `http://127.0.0.1:${apiPort}` },
      },
    });
    cleanups.add(() => server.close());

    // 3b. The same bundle as a console deployed on its own origin would be: the API named by its meta tag (what a
    // build with VITE_API_URL does), no proxy; the service trusts this origin, so CORS with cookies must carry it.
    const crossDir = mkdtempSync(join(tmpdir(), 'console-cross-'));
    cleanups.add(() => rmSync(crossDir, { recursive: true, force: true }));
    cpSync(join(CONSOLE, 'dist'), crossDir, { recursive: true });
    const crossIndex = join(crossDir, 'index.html');
    const meta = `<meta name="identity-api" content="${apiOrigin}/api/auth" />`;
    writeFileSync(crossIndex, readFileSync(crossIndex, 'utf8').replace('<head>', `<head>\n    ${meta}`));
    const crossServer: PreviewServer = await preview({
      root: CONSOLE,
      configFile: false,
      logLevel: 'warn',
      build: { outDir: crossDir },
      preview: { host: '127.0.0.1', port: crossPort, strictPort: true },
    });
    cleanups.add(() => crossServer.close());

    // 4. Chromium.
    const chromium = await launchChromium(cleanups);
    const api: World['api'] = (path, init) => service.api(path, init);
    return {
      origin,
      apiOrigin,
      crossOrigin,
      apiPort,
      mailSink: service.mailSink,
      startMailWorker: service.startMailWorker,
      startWorker: service.startMailWorker,
      query: service.query,
      consoleErrors: chromium.consoleErrors,
      browser: chromium.browser,
      api,
      signIn: (email, password) => api('/sign-in/email', { body: { email, password } }),
      pageErrors: chromium.pageErrors,
      blocked: chromium.blocked,
      newPage: (viewport) => chromium.newPage(viewport),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

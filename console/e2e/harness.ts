import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';

/**
 * The e2e world: a REAL identity service (built from services/identity, fresh PostgreSQL database, Redis prefix)
 * and the built console served by `vite preview` on one origin that proxies /api to the service; headless
 * Debian Chromium drives it. Everything is torn down in stop().
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SERVICE = join(ROOT, 'services/identity');
const CONSOLE = join(ROOT, 'console');
const PG_ADMIN = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ADMIN = { email: 'root@console-e2e.test', password: 'Admin-pass-123!', name: 'Root Admin' };
/**
 * The product's address the console is built with (VITE_PRODUCT_URL; the impersonation banner links to it). Nothing
 * listens there: the scenarios read the link, they do not follow it.
 */
export const PRODUCT_URL = process.env.VITE_PRODUCT_URL ?? 'http://127.0.0.1:9/app/';

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** A JSON answer of any route; the scenarios read the fields they assert on. */
// biome-ignore lint/suspicious/noExplicitAny: bodies of many routes, read field by field in the assertions
export type ApiReply = { status: number; body: any; cookie?: string };

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
  /** Where the service writes its mails (.eml files), once the mail worker runs (startMailWorker). */
  outboxDir: string;
  /** Starts the mail worker (the service only queues mail): from then on queued mails reach outboxDir. */
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
  const id = randomBytes(4).toString('hex');
  const db = `console_e2e_${id}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch((e) => console.error('e2e cleanup:', e));
  };
  try {
    // 1. Service build (always, so the test never runs a stale dist; E2E_REUSE_DIST=1 skips it) and console build.
    if (!existsSync(join(SERVICE, 'dist/main.js')) || !process.env.E2E_REUSE_DIST) {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(SERVICE, 'tsconfig.build.json')],
        {
          stdio: 'inherit',
        },
      );
    }
    process.env.VITE_PRODUCT_URL = PRODUCT_URL;
    await build({ root: CONSOLE, logLevel: 'warn', configFile: join(CONSOLE, 'vite.config.ts') });

    // 2. A fresh database.
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    });
    const databaseUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${db}`);

    // 3. The service, on its own port, trusting the console's origin, and serving the built console at /console.
    const [apiPort, consolePort, crossPort] = [await freePort(), await freePort(), await freePort()];
    const outboxDir = mkdtempSync(join(tmpdir(), 'console-outbox-'));
    cleanups.push(() => rmSync(outboxDir, { recursive: true, force: true }));
    const origin = `http://127.0.0.1:${consolePort}`;
    const apiOrigin = `http://127.0.0.1:${apiPort}`;
    const crossOrigin = `http://127.0.0.1:${crossPort}`;
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: `console-e2e-${id}:`,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      NODE_ENV: 'test',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      TRUSTED_ORIGINS: `${apiOrigin},${crossOrigin}`,
      CONSOLE_ENABLED: 'true',
      CONSOLE_DIR: join(CONSOLE, 'dist'),
      MAIL_OUTBOX_DIR: outboxDir,
      ...options.env,
    };
    // Runs after the service stops (cleanups run in reverse): drop this run's Redis keys.
    cleanups.push(async () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.REDIS_PREFIX}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    });
    const cli = (args: string[]) =>
      execFileSync(process.execPath, [join(SERVICE, 'dist/cli.js'), ...args], { env, stdio: 'pipe' });
    cli(['migrate']);
    cli(['create-admin', '--email', ADMIN.email, '--password', ADMIN.password, '--name', ADMIN.name]);
    const service: ChildProcess = spawn(process.execPath, [join(SERVICE, 'dist/main.js')], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let serviceErr = '';
    service.stderr?.on('data', (d) => {
      serviceErr += d;
    });
    cleanups.push(
      () =>
        new Promise<void>((res) => {
          if (service.exitCode !== null) return res();
          service.once('exit', () => res());
          service.kill('SIGTERM');
        }),
    );
    const apiBase = `http://127.0.0.1:${apiPort}/api/auth`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${apiBase}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (service.exitCode !== null || i > 150) throw new Error(`identity service did not start: ${serviceErr}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    // 4. The built console with /api proxied to the service: one origin.
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
    cleanups.push(() => server.close());

    // 4b. The same bundle as a console deployed on its own origin would be: the API named by its meta tag (what a
    // build with VITE_API_URL does), no proxy; the service trusts this origin, so CORS with cookies must carry it.
    const crossDir = mkdtempSync(join(tmpdir(), 'console-cross-'));
    cleanups.push(() => rmSync(crossDir, { recursive: true, force: true }));
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
    cleanups.push(() => crossServer.close());

    // 5. Chromium: Debian's, never a downloaded one.
    // launch() gives Chromium a fresh temporary profile of its own (it refuses a --user-data-dir argument).
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    cleanups.push(() => browser.close());

    let worker: ChildProcess | null = null;
    const startMailWorker = () => {
      if (worker) return;
      const started = spawn(process.execPath, [join(SERVICE, 'dist/worker.js')], { env, stdio: 'ignore' });
      worker = started;
      // Stopped before Redis is cleaned (cleanups run in reverse).
      cleanups.push(
        () =>
          new Promise<void>((res) => {
            if (started.exitCode !== null) return res();
            started.once('exit', () => res());
            started.kill('SIGTERM');
          }),
      );
    };

    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    const blocked: string[] = [];
    const query: World['query'] = async (text, params = []) => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end();
      }
    };
    const api: World['api'] = async (path, init = {}) => {
      const res = await fetch(`${origin}/api/auth${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          origin,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      return { status: res.status, body: text ? JSON.parse(text) : null, cookie: cookie || undefined };
    };
    return {
      origin,
      apiOrigin,
      crossOrigin,
      apiPort,
      outboxDir,
      startMailWorker,
      startWorker: startMailWorker,
      query,
      consoleErrors,
      browser,
      api,
      signIn: (email, password) => api('/sign-in/email', { body: { email, password } }),
      pageErrors,
      blocked,
      async newPage(viewport = { width: 1280, height: 900 }) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        // Only loopback may be reached (react-admin telemetry, fonts, anything else: aborted and recorded).
        await page.route('**/*', (route) => {
          const host = new URL(route.request().url()).hostname;
          if (host === '127.0.0.1' || host === 'localhost') return route.continue();
          blocked.push(route.request().url());
          return route.abort();
        });
        page.on('pageerror', (e) => pageErrors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') consoleErrors.push(m.text());
        });
        return page;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type SinkMessage, type SmtpSink, startSmtpSink } from '../services/identity/test/setup/smtp-sink';

export type { SinkMessage, SmtpSink };

/**
 * What the browser tests of the console and of the hosted pages share: a REAL identity service (built from
 * services/identity, on a fresh PostgreSQL database and a Redis prefix of its own), its mail worker sending over real
 * SMTP to a sink on loopback (the service tests' own, services/identity/test/setup/smtp-sink.ts), and headless Debian
 * Chromium. Each piece registers its own teardown on a `Cleanups` stack, run in reverse by stop().
 */
export const ROOT = resolve(import.meta.dirname, '..');
export const SERVICE = join(ROOT, 'services/identity');
const PG_ADMIN = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export class Cleanups {
  private readonly steps: (() => Promise<void> | void)[] = [];
  add(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.reverse())
      await Promise.resolve(step()).catch((e) => console.error('e2e cleanup:', e));
    this.steps.length = 0;
  }
}

export function freePort(): Promise<number> {
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

export interface Service {
  apiPort: number;
  /** The service's own origin. */
  apiOrigin: string;
  /** The environment it runs with (the CLI and the worker get the same). */
  env: Record<string, string | undefined>;
  /**
   * The SMTP server the service sends its mail to (SMTP_URL): a sink on loopback keeping every message it receives,
   * once the mail worker runs (startMailWorker). Read it with mailLink / mailMatch.
   */
  mailSink: SmtpSink;
  /** Runs `node dist/cli.js <args>` against this service's database. */
  cli(args: string[]): void;
  /** Starts the mail worker (the service only queues mail): from then on queued mails reach mailSink over SMTP. */
  startMailWorker(): void;
  /** One SQL statement on the run's database (test set-up only, e.g. marking an email verified). */
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** POST/GET against the API from Node with `origin` as Origin; `cookie` to act as a signed-in user. */
  api(path: string, init?: { method?: string; body?: unknown; cookie?: string; origin?: string }): Promise<ApiReply>;
}

export interface ServiceOptions {
  /** A name for the database and the Redis prefix (`<name>_<random>`). */
  name: string;
  apiPort: number;
  /** PUBLIC_URL: every mailed link starts with it. */
  publicUrl: string;
  /** The Origin `api()` sends, and where its requests go (an origin proxying /api to the service, or the service). */
  apiVia: string;
  /** More settings (TRUSTED_ORIGINS, CONSOLE_ENABLED, HOSTED_PAGES_ENABLED, …). */
  env: Record<string, string>;
  /** Run once migrations are applied, before the service starts (create-admin, …). */
  beforeStart?: (cli: (args: string[]) => void) => void;
}

/** Builds the service (unless E2E_REUSE_DIST=1 and a build exists), makes its database and starts it. */
export async function startService(cleanups: Cleanups, options: ServiceOptions): Promise<Service> {
  if (!existsSync(join(SERVICE, 'dist/main.js')) || !process.env.E2E_REUSE_DIST)
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(SERVICE, 'tsconfig.build.json')],
      { stdio: 'inherit' },
    );
  const id = randomBytes(4).toString('hex');
  const db = `${options.name}_${id}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  cleanups.add(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await c.end();
  });
  const databaseUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${db}`);
  // Stopped after the service and its worker (cleanups run in reverse), so no mail in flight meets a closed port.
  const mailSink = await startSmtpSink();
  cleanups.add(() => mailSink.stop());
  const apiOrigin = `http://127.0.0.1:${options.apiPort}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: `${options.name}-${id}:`,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    PORT: String(options.apiPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: options.publicUrl,
    NODE_ENV: 'test',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    // Real SMTP (docs/mail.md), never the dev outbox: the API and the worker send to the sink on loopback.
    SMTP_URL: mailSink.url,
    ...options.env,
  };
  // Runs after the service stops (cleanups run in reverse): drop this run's Redis keys.
  cleanups.add(async () => {
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
  const cli = (args: string[]) => {
    execFileSync(process.execPath, [join(SERVICE, 'dist/cli.js'), ...args], { env, stdio: 'pipe' });
  };
  cli(['migrate']);
  options.beforeStart?.(cli);
  const stopOnExit = (child: ChildProcess) => () =>
    new Promise<void>((res) => {
      if (child.exitCode !== null) return res();
      child.once('exit', () => res());
      child.kill('SIGTERM');
    });
  // With the Node.js flags of the service's start script, as the image and the chart run it.
  const flags: string[] = JSON.parse(readFileSync(join(SERVICE, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  const service = spawn(process.execPath, [...flags.slice(1, -1), join(SERVICE, 'dist/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serviceErr = '';
  service.stderr?.on('data', (d) => {
    serviceErr += d;
  });
  cleanups.add(stopOnExit(service));
  for (let i = 0; ; i++) {
    const ok = await fetch(`${apiOrigin}/api/auth/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (service.exitCode !== null || i > 150) throw new Error(`identity service did not start: ${serviceErr}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  let worker: ChildProcess | null = null;
  const startMailWorker = () => {
    if (worker) return;
    worker = spawn(process.execPath, [join(SERVICE, 'dist/worker.js')], { env, stdio: 'ignore' });
    // Stopped before Redis is cleaned (cleanups run in reverse).
    cleanups.add(stopOnExit(worker));
  };
  const query: Service['query'] = async (text, params = []) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  };
  const api: Service['api'] = async (path, init = {}) => {
    const res = await fetch(`${options.apiVia}/api/auth${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        origin: init.origin ?? options.apiVia,
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
  return { apiPort: options.apiPort, apiOrigin, env, mailSink, cli, startMailWorker, query, api };
}

export interface Chromium {
  browser: Browser;
  /** A page in a fresh context that may reach loopback only (anything else is aborted and recorded in `blocked`). */
  newPage(viewport?: { width: number; height: number }, options?: { locale?: string }): Promise<Page>;
  pageErrors: string[];
  /** Every console error the pages printed (a CSP violation would show here). */
  consoleErrors: string[];
  blocked: string[];
}

/** Debian's Chromium, headless, never a downloaded one. */
export async function launchChromium(cleanups: Cleanups): Promise<Chromium> {
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
  cleanups.add(() => browser.close());
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const blocked: string[] = [];
  return {
    browser,
    pageErrors,
    consoleErrors,
    blocked,
    async newPage(viewport = { width: 1280, height: 900 }, options = {}) {
      const context = await browser.newContext({ viewport, ...options });
      const page = await context.newPage();
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
  };
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Waits for a mail the sink received for `to` (SMTP envelope and To header) whose text holds a match of `link`,
 * and answers the match. The sink gives the message parsed (mailparser): quoted-printable is already undone, so a
 * link the mail wrapped over soft line breaks comes back whole. The plain-text part carries every mail's link
 * (docs/mail.md); the HTML part is read too, its `&amp;` undone.
 */
export async function mailMatch(
  sink: SmtpSink,
  to: string,
  link: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpExecArray> {
  const matchOf = (message: SinkMessage) => {
    if (!message.envelope.to.some((a) => sameAddress(a, to)) || !message.to.some((a) => sameAddress(a, to)))
      return null;
    for (const body of [message.text, message.html.replaceAll('&amp;', '&')]) {
      const found = new RegExp(link.source, link.flags.replace('g', '')).exec(body);
      if (found) return found;
    }
    return null;
  };
  try {
    const message = await sink.waitFor((m) => matchOf(m) !== null, timeoutMs);
    return matchOf(message) as RegExpExecArray;
  } catch (error) {
    throw new Error(`no mail to ${to} matching ${link}: ${(error as Error).message}`);
  }
}

/** Waits for a mail to `to` whose text holds a link matching `link` (see mailMatch), and answers that link. */
export async function mailLink(sink: SmtpSink, to: string, link: RegExp): Promise<string> {
  return (await mailMatch(sink, to, link))[0];
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { listenOnLoopback, startTestApp, type TestApp } from '../../setup/app';

/**
 * The built files the service serves at /auth (the hosted pages) and /console (the admin console), attacked with
 * the paths a file server must refuse: parents in every spelling, dotfiles, directories, null bytes, very long
 * names. Each answers the catalogue's 404 (a missing file's answer) whatever the method, never a 5xx, never a
 * file outside the build, and writes no error-level log line (any caller could otherwise fill the error log).
 * Pages answer HEAD as GET. Over real HTTP, raw paths as a client sends them (no client-side normalizing).
 */
const parent = mkdtempSync(join(tmpdir(), 'static-paths-'));
writeFileSync(join(parent, 'secret.txt'), 'TOP-SECRET');
writeFileSync(join(parent, 'package.json'), '{"name":"TOP-SECRET"}');

/** A build as vite writes it, with what must never be served next to it. */
function build(name: string, title: string): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'assets', 'sub'), { recursive: true });
  mkdirSync(join(dir, '.git'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><base href="/" /><title>${title}</title></head><body></body></html>`,
  );
  writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("bundle");');
  writeFileSync(join(dir, 'assets', 'sub', 'chunk-3c4d.js'), 'console.log("chunk");');
  writeFileSync(join(dir, 'assets', '.hidden.js'), 'SECRET=1');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
  writeFileSync(join(dir, '.git', 'config'), '[core] SECRET=1');
  return dir;
}
const hostedDir = build('hosted', 'Sign in');
const consoleDir = build('console', 'Console');

let t: TestApp;
let port: number;
let log = '';
beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk) => (log += chunk));
  t = await startTestApp(
    {},
    {
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: hostedDir,
      CONSOLE_ENABLED: 'true',
      CONSOLE_DIR: consoleDir,
      LOG_LEVEL: 'info',
    },
    sink,
  );
  port = Number(new URL(await listenOnLoopback(t.app)).port);
});
afterAll(async () => {
  await t?.close();
  rmSync(parent, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with the path sent byte for byte as given. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Error-level lines (pino: error 50, fatal 60) the service logged since `from`. */
const errorLines = (from: number) =>
  log
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url?: string } })
    .filter((l) => l.level >= 50);

/** Paths under a prefix that name no file the service serves. */
const BLOCKED = [
  // parents, plain and in every spelling a decoder might accept
  '/../secret.txt',
  '/../package.json',
  '/assets/../../secret.txt',
  '/%2e%2e/secret.txt',
  '/%2E%2E/secret.txt',
  '/.%2e/secret.txt',
  '/%2e./secret.txt',
  '/..%2fsecret.txt',
  '/..%2Fsecret.txt',
  '/%2e%2e%2fsecret.txt',
  '/assets/..%2f..%2fsecret.txt',
  '/%252e%252e/secret.txt',
  '/%252e%252e%252fsecret.txt',
  '/..%255csecret.txt',
  '/..%5csecret.txt',
  '/..%5Csecret.txt',
  '/..\\secret.txt',
  '/assets\\..\\..\\secret.txt',
  // dotfiles and dot directories
  '/.env',
  '/%2eenv',
  '/.git/config',
  '/.git/',
  '/.git',
  '/assets/.hidden.js',
  // directories, with and without the slash, and non-canonical spellings of files
  '/assets/',
  '/assets',
  '/assets/sub',
  '/assets/sub/',
  '/assets//app-1a2b.js',
  '//assets/app-1a2b.js',
  '/./index.html',
  '/assets/./app-1a2b.js',
  '/ASSETS/app-1a2b.js',
  // very long names
  `/${'a'.repeat(300)}.js`,
  `/assets/${'b'.repeat(5000)}.js`,
  `/${'c/'.repeat(2000)}d.js`,
  // files that simply do not exist
  '/assets/gone-0000.js',
  '/missing.txt',
];

/** Paths whose text is no path at all: refused as any such input is, 400 VALIDATION_ERROR (docs/security.md). */
const UNREADABLE = [
  '/index.html%00.js',
  '/%00',
  '/assets/%00/app-1a2b.js',
  '/.env%00',
  '/assets/%e0%a4%a',
  '/%c0%ae%c0%ae/secret.txt',
];

/** A path as a test label: the long ones cut short. */
const label = (path: string) => (path.length > 60 ? `${path.slice(0, 40)}…(${path.length} characters)` : path);

describe.each(['/auth', '/console'])('%s', (prefix) => {
  it.each(['GET', 'HEAD'])(
    '%s on paths that name no served file: the catalogue 404, nothing outside the build, no error-level log line',
    async (method) => {
      const from = log.length;
      const answers: Array<[string, number, string]> = [];
      for (const path of BLOCKED) {
        const res = await send(method, `${prefix}${path}`);
        answers.push([label(path), res.status, method === 'GET' ? res.body : String(res.headers['content-type'])]);
        expect([label(path), res.body.includes('SECRET')]).toEqual([label(path), false]);
      }
      const expected =
        method === 'GET' ? '{"code":"NOT_FOUND","message":"Not found"}' : 'application/json; charset=utf-8';
      expect(answers).toEqual(BLOCKED.map((path) => [label(path), 404, expected]));
      await new Promise((r) => setImmediate(r));
      expect(errorLines(from)).toEqual([]);
    },
  );

  it.each(['GET', 'HEAD'])(
    '%s on paths with a NUL or a broken percent-encoding: 400 VALIDATION_ERROR, no error-level log line',
    async (method) => {
      const from = log.length;
      for (const path of UNREADABLE) {
        const res = await send(method, `${prefix}${path}`);
        expect([path, res.status, res.headers['content-type']]).toEqual([path, 400, 'application/json; charset=utf-8']);
        if (method === 'GET') expect([path, JSON.parse(res.body).code]).toEqual([path, 'VALIDATION_ERROR']);
      }
      await new Promise((r) => setImmediate(r));
      expect(errorLines(from)).toEqual([]);
    },
  );

  it('range and precondition headers on a served file: the whole file, or PRECONDITION_FAILED; never a 5xx', async () => {
    const from = log.length;
    const file = `${prefix}/assets/app-1a2b.js`;
    const ranged = await send('GET', file, { range: 'bytes=99999-' });
    expect([ranged.status, ranged.body]).toEqual([200, 'console.log("bundle");']);
    expect((await send('GET', file, { range: 'bytes=0-3' })).status).toBe(200);
    const preconditions: Array<Record<string, string>> = [
      { 'if-match': '"nope"' },
      { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    ];
    for (const headers of preconditions) {
      const res = await send('GET', file, headers);
      expect([headers, res.status, JSON.parse(res.body)]).toEqual([
        headers,
        412,
        { code: 'PRECONDITION_FAILED', message: 'Precondition failed' },
      ]);
    }
    await new Promise((r) => setImmediate(r));
    expect(errorLines(from)).toEqual([]);
  });
});

describe('HEAD answers as GET', () => {
  it.each([
    '/auth/',
    '/auth/sign-in',
    '/auth/sign-in/',
    '/auth/two-factor',
    '/auth/invitation/0b7c1e62-4c1a-4c55-9a57-7f0d3f1e2a10',
    '/auth/config.json',
    '/auth/assets/app-1a2b.js',
    '/console/',
    '/console/users',
    '/console/assets/app-1a2b.js',
  ])('%s', async (path) => {
    const get = await send('GET', path);
    const head = await send('HEAD', path);
    expect(get.status).toBe(200);
    expect(get.body.length).toBeGreaterThan(0);
    expect([head.status, head.body]).toEqual([200, '']);
    for (const name of [
      'content-type',
      'content-length',
      'cache-control',
      'content-security-policy',
      'x-frame-options',
    ])
      expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
  });

  it('positive controls: pages and files are served; an unknown page path gets the page, whose app says not found', async () => {
    expect((await send('GET', '/auth/sign-in')).body).toContain('<base href="/auth/" />');
    expect((await send('GET', '/auth/no-such-page')).body).toContain('<base href="/auth/" />');
    expect((await send('GET', '/auth/assets/sub/chunk-3c4d.js')).body).toBe('console.log("chunk");');
    expect((await send('GET', '/console/no-such-page')).body).toContain('<base href="/console/" />');
  });
});

describe('outside the built apps', () => {
  it('a path the router cannot decode, or a parameter past its length limit, is a VALIDATION_ERROR, not a framework body', async () => {
    const from = log.length;
    for (const path of [
      '/api/auth/%e0%a4%a',
      '/api/auth/reset-password/%c0%ae',
      '/nothing/%e0%a4%a',
      `/api/auth/reset-password/${'x'.repeat(600)}`,
    ]) {
      const res = await send('GET', path);
      expect([label(path), res.status, JSON.parse(res.body).code]).toEqual([label(path), 400, 'VALIDATION_ERROR']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    await new Promise((r) => setImmediate(r));
    expect(errorLines(from)).toEqual([]);
  });
});

import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app';
import { loggerOptions } from '../../../src/infra/logger';
import { startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { DATA_COOKIE, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

/**
 * get-session's cookie fast path (features/session/cookie-fast-path.ts) answers before Fastify's routing. Over
 * real HTTP, two servers on one context: `fast` (the default) and `plain` (every request through Fastify). Each
 * counts the requests that reached Fastify, so a test knows which path answered.
 */
interface Server {
  app: FastifyInstance;
  port: number;
  reachedFastify: number;
  lines: () => Record<string, unknown>[];
}

let t: TestApp;
let fast: Server;
let plain: Server;

async function serve(cookieFastPath: boolean): Promise<Server> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  const app = await buildApp(t.ctx, { logger: { ...(loggerOptions(t.config) as object), stream }, cookieFastPath });
  const server: Server = {
    app,
    port: 0,
    reachedFastify: 0,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
  app.addHook('onRequest', (_request, _reply, done) => {
    server.reachedFastify++;
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  server.port = (app.server.address() as AddressInfo).port;
  return server;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  server: Server,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** The same request to both servers: the answers, and which server's Fastify saw it. */
async function both(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
  between?: () => void,
) {
  const before = { fast: fast.reachedFastify, plain: plain.reachedFastify };
  const a = await call(fast, path, headers, method, body);
  between?.();
  const b = await call(plain, path, headers, method, body);
  return {
    fast: a,
    plain: b,
    fastWentToFastify: fast.reachedFastify - before.fast === 1,
    plainWentToFastify: plain.reachedFastify - before.plain === 1,
  };
}

const withoutDate = (headers: Answer['headers']) => {
  const { date, ...rest } = headers;
  expect(date).toBeDefined();
  return rest;
};

const PATH = '/api/auth/get-session';

beforeAll(async () => {
  t = await startTestApp({}, { LOG_LEVEL: 'info', LOG_LOOKUPS: 'true', METRICS_ENABLED: 'true' });
  fast = await serve(true);
  plain = await serve(false);
});
afterAll(async () => {
  await fast?.app.close();
  await plain?.app.close();
  await t.close();
});

async function signedIn() {
  const u = await signUp(t.app);
  // Fill the cache cookie the way a browser gets it: from an answer of get-session through Fastify, after the
  // second in which the one the sign-up answer set is reused (and not sent again to a request carrying none).
  t.clock.advance(1.001);
  const first = await call(plain, PATH, { cookie: `${TOKEN_COOKIE}=${u.jar.get(TOKEN_COOKIE)}` });
  const cache = [first.headers['set-cookie']].flat().find((c) => c?.startsWith(`${DATA_COOKIE}=`));
  u.jar.cookies.set(DATA_COOKIE, cache!.split(';')[0].slice(DATA_COOKIE.length + 1));
  return u;
}

describe('get-session cookie fast path', () => {
  it('answers a valid cache cookie without Fastify, with the same status, headers and body', async () => {
    const u = await signedIn();
    const r = await both(PATH, { cookie: u.jar.header(), accept: 'application/json' });
    expect(r.fastWentToFastify).toBe(false);
    expect(r.plainWentToFastify).toBe(true);
    expect(r.fast.status).toBe(200);
    expect(JSON.parse(r.fast.body).session.token).toBe(u.token);
    expect(r.fast.body).toBe(r.plain.body);
    expect(withoutDate(r.fast.headers)).toEqual(withoutDate(r.plain.headers));
    expect(r.fast.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(r.fast.headers['set-cookie']).toBeUndefined();
  });

  it('writes the same request log line as Fastify, request id included', async () => {
    const u = await signedIn();
    const headers = { cookie: u.jar.header(), 'x-request-id': 'fast-path-log-check' };
    const r = await both(PATH, headers);
    expect(r.fastWentToFastify).toBe(false);
    const mine = (s: Server) =>
      s
        .lines()
        .filter((l) => l.reqId === 'fast-path-log-check')
        .map(({ time, responseTime, pid, hostname, ...rest }) => {
          expect(typeof time).toBe('number');
          expect(typeof responseTime).toBe('number');
          return rest;
        });
    // One line per request, when it is answered (infra/request-log.ts).
    expect(mine(fast)).toHaveLength(1);
    expect(mine(fast)).toEqual(mine(plain));
    expect(mine(fast)[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: PATH, remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(JSON.stringify(fast.lines())).not.toContain(u.token);
  });

  it('counts the answer in the get-session and request-duration metrics, as Fastify does', async () => {
    const u = await signedIn();
    const scrape = async () => (await call(plain, '/metrics', {})).body;
    const count = (text: string, line: RegExp) => Number(text.match(line)?.[1] ?? 0);
    const cookieHits = /^identity_get_session_total\{path="cookie"\} (\d+)/m;
    const durations =
      /^identity_http_request_duration_seconds_count\{method="GET",route="\/api\/auth\/get-session",status="200"\} (\d+)/m;
    const before = await scrape();
    const r = await both(PATH, { cookie: u.jar.header() });
    expect(r.fastWentToFastify).toBe(false);
    const after = await scrape();
    // One metrics registry for both servers (one context): one answer from each.
    expect(count(after, cookieHits) - count(before, cookieHits)).toBe(2);
    expect(count(after, durations) - count(before, durations)).toBe(2);
  });

  it('sends every other request to Fastify, which answers it as it would without the fast path', async () => {
    const u = await signedIn();
    const cookie = u.jar.header();
    const revoked = await signedIn();
    await call(plain, '/api/auth/sign-out', { cookie: revoked.jar.header(), origin: TRUSTED_ORIGIN }, 'POST');
    const forgedToken = `${TOKEN_COOKIE}=${'x'.repeat(32)}.${'y'.repeat(43)}`;
    const cases: Array<[string, string, Record<string, string>, string?, string?]> = [
      ['a query string', `${PATH}?disableCookieCache=true`, { cookie }],
      ['a trusted Origin (CORS headers)', PATH, { cookie, origin: TRUSTED_ORIGIN }],
      ['a trailing slash', `${PATH}/`, { cookie }],
      ['a body', PATH, { cookie, 'content-type': 'application/json', 'content-length': '2' }, 'GET', '{}'],
      ['HEAD', PATH, { cookie }, 'HEAD'],
      ['text PostgreSQL cannot store in another cookie', PATH, { cookie: `${cookie}; other=%00` }],
      // Fastify's route clears the cookies of a session that is gone, and of a forged token cookie.
      ['a signed-out session', PATH, { cookie: `${TOKEN_COOKIE}=${revoked.jar.get(TOKEN_COOKIE)}` }],
      ['a forged token cookie', PATH, { cookie: forgedToken }],
    ];
    for (const [name, path, headers, method, body] of cases) {
      const r = await both(path, headers, method, body);
      expect({ name, fastWentToFastify: r.fastWentToFastify }).toEqual({ name, fastWentToFastify: true });
      expect({ name, status: r.fast.status }).toEqual({ name, status: r.plain.status });
      if (name.startsWith('text')) expect(r.fast.status).toBe(400);
      if (name.startsWith('a trusted')) expect(r.fast.headers['access-control-allow-origin']).toBe(TRUSTED_ORIGIN);
      if (method !== 'HEAD' && !name.startsWith('a body'))
        expect({ name, session: JSON.parse(r.fast.body)?.session?.token ?? null }).toEqual({
          name,
          session: JSON.parse(r.plain.body)?.session?.token ?? null,
        });
    }
  });

  /**
   * (b): a token without a usable cache cookie is looked up as Fastify's route looks it up (Redis, else
   * PostgreSQL) and answered the same: body, headers, and for a browser a fresh cache cookie. The two servers share
   * one context, so the clock moves past the second in which a cache cookie is reused (and not sent again to a
   * request carrying none) before the second server answers.
   */
  it('answers a lookup without Fastify, with the same status, headers, cookies and body', async () => {
    const u = await signedIn();
    const cookie = u.jar.header();
    const tokenOnly = `${TOKEN_COOKIE}=${u.jar.get(TOKEN_COOKIE)}`;
    // One character of the signed payload changed (a middle one: the last of a signature can be padding bits only).
    const tampered = cookie.replace(/(session_data=.{10})(.)/, (_m, a, c) => `${a}${c === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(cookie);
    const cases: Array<[string, Record<string, string>]> = [
      ['no cache cookie', { cookie: tokenOnly }],
      ['a tampered cache cookie', { cookie: tampered }],
      ['no cookie, a Bearer token', { authorization: `Bearer ${u.token}` }],
      ['a Bearer token and another cookie', { authorization: `Bearer ${u.token}`, cookie: 'theme=dark' }],
    ];
    for (const [name, headers] of cases) {
      t.clock.advance(1.001);
      const r = await both(PATH, { ...headers, 'x-request-id': `lookup-${name}` }, 'GET', undefined, () =>
        t.clock.advance(1.001),
      );
      expect({ name, fastWentToFastify: r.fastWentToFastify }).toEqual({ name, fastWentToFastify: false });
      expect({ name, status: r.fast.status }).toEqual({ name, status: 200 });
      expect(JSON.parse(r.fast.body).session.token).toBe(u.token);
      expect(r.fast.body).toBe(r.plain.body);
      // The cache cookies' values differ: each signs the second it was made in.
      const masked = (headers: Answer['headers']) => {
        const rest = withoutDate(headers);
        const cookies = [rest['set-cookie']].flat().filter((c) => c !== undefined);
        return cookies.length
          ? { ...rest, 'set-cookie': cookies.map((c) => c.replace(/^([^=]+)=[^;]*/, '$1=…')) }
          : rest;
      };
      expect({ name, headers: masked(r.fast.headers) }).toEqual({ name, headers: masked(r.plain.headers) });
      const cacheCookie = [r.fast.headers['set-cookie']].flat().some((c) => c?.startsWith(`${DATA_COOKIE}=`));
      expect({ name, cacheCookie }).toEqual({ name, cacheCookie: !name.includes('Bearer') });
      const lines = (s: Server) =>
        s
          .lines()
          .filter((l) => l.reqId === `lookup-${name}`)
          .map(({ time, responseTime, pid, hostname, ...rest }) => rest);
      expect(lines(fast)).toHaveLength(1);
      expect(lines(fast)).toEqual(lines(plain));
    }
  });

  /**
   * A cache cookie is reused for a second; within it, a lookup that carried no cache cookie at all (a service
   * forwarding the browser's token cookie, a parallel request of a browser that was just sent it) is not sent the
   * same 1.4 KB again. One that carried an unusable cache cookie is, and so is a new one after the second.
   */
  it('sends a lookup the cache cookie once a second unless it carried one, on both paths alike', async () => {
    for (const server of [fast, plain]) {
      const u = await signedIn();
      const tokenOnly = { cookie: `${TOKEN_COOKIE}=${u.jar.get(TOKEN_COOKIE)}` };
      const cacheCookieOf = (r: Answer) =>
        [r.headers['set-cookie']]
          .flat()
          .find((c) => c?.startsWith(`${DATA_COOKIE}=`))
          ?.split(';')[0]
          .slice(DATA_COOKIE.length + 1) ?? null;
      t.clock.advance(1.001); // past the second in which signedIn's cache cookie is reused
      const first = await call(server, PATH, tokenOnly);
      const sent = cacheCookieOf(first);
      expect(sent).toMatch(/\.[A-Za-z0-9+/_-]{43}$/);
      const again = await call(server, PATH, tokenOnly);
      expect([again.status, again.body, cacheCookieOf(again)]).toEqual([200, first.body, null]);
      const stale = await call(server, PATH, { cookie: `${tokenOnly.cookie}; ${DATA_COOKIE}=${sent!.slice(0, -2)}AA` });
      expect([stale.status, cacheCookieOf(stale)]).toEqual([200, sent]);
      t.clock.advance(1.001);
      const later = await call(server, PATH, tokenOnly);
      expect(cacheCookieOf(later)).toMatch(/\.[A-Za-z0-9+/_-]{43}$/);
      expect(cacheCookieOf(later)).not.toBe(sent);
    }
  });

  it('answers a session past its update age with both cookies again, as Fastify does', async () => {
    // Two sessions in the same state: a renewal happens once, so each path renews its own.
    const [one, two] = [await signedIn(), await signedIn()];
    t.clock.advance(t.config.session.updateAgeSec + 1);
    const tokenOnly = (u: typeof one) => ({ cookie: `${TOKEN_COOKIE}=${u.jar.get(TOKEN_COOKIE)}` });
    const before = fast.reachedFastify;
    const a = await call(fast, PATH, tokenOnly(one));
    expect(fast.reachedFastify).toBe(before);
    const b = await call(plain, PATH, tokenOnly(two));
    // Cookie names and attributes alike (values differ: two sessions).
    const shape = (r: Answer) =>
      [r.headers['set-cookie']]
        .flat()
        .map((c) => c!.replace(/^([^=]+)=[^;]*/, '$1=…'))
        .sort();
    expect(shape(a)).toEqual(shape(b));
    expect(shape(a).map((c) => c.split('=')[0])).toEqual([DATA_COOKIE, TOKEN_COOKIE]);
    expect(JSON.parse(a.body).session.expiresAt).toBe(JSON.parse(b.body).session.expiresAt);
  });

  it('leaves a draining instance to Fastify', async () => {
    const fresh = await signedIn();
    t.ctx.lifecycle.draining = true;
    try {
      const draining = await both(PATH, { cookie: fresh.jar.header() });
      expect(draining.fastWentToFastify).toBe(true);
      expect(draining.fast.status).toBe(200);
    } finally {
      t.ctx.lifecycle.draining = false;
    }
    const open = await both(PATH, { cookie: fresh.jar.header() });
    expect(open.fastWentToFastify).toBe(false);
  });

  it('keeps the HTTP server timeouts Fastify would set on a server of its own', () => {
    expect(fast.app.server.keepAliveTimeout).toBe(plain.app.initialConfig.keepAliveTimeout);
    expect(fast.app.server.keepAliveTimeout).toBe(72_000);
    expect(fast.app.server.requestTimeout).toBe(plain.app.server.requestTimeout);
    expect(fast.app.server.timeout).toBe(plain.app.server.timeout);
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { PASSWORD, post, signUp, uniqueEmail } from '../../setup/fixtures';
import { type RegisteredRoute, registeredRoutes } from '../../setup/routes';

/**
 * Text PostgreSQL cannot store (U+0000, a lone UTF-16 surrogate), anywhere in a body, a query, a path parameter,
 * a cookie or a header, is refused at validation with 400 VALIDATION_ERROR naming where it was: never a 500,
 * never a row written. Every registered route is tried.
 */
let t: TestApp;
let routes: RegisteredRoute[];

beforeAll(async () => {
  t = await startTestApp();
  routes = registeredRoutes(t.app);
  expect(routes.length).toBeGreaterThan(100);
});
afterAll(() => t?.close());

/** A concrete URL for a route pattern: path parameters and wildcards filled with harmless text. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x1').replace('*', 'x1');

/**
 * The sweeps' requests carry this address and user agent (test files share the database, so "nothing written" is
 * asked of what these requests could have written).
 */
const EMAIL = uniqueEmail('unstorable');
const AGENT = `unstorable-sweep-${Date.now()}`;
async function writtenBySweep(): Promise<number[]> {
  const count = async (sql: string, value: string) =>
    (await t.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [value]))[0].n;
  return [
    await count('users WHERE email = $1', EMAIL),
    await count('sessions WHERE user_agent = $1', AGENT),
    await count("verifications WHERE identifier LIKE '%' || $1 || '%' OR value LIKE '%' || $1 || '%'", EMAIL),
  ];
}

const parsed = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return res.body;
  }
};

/** spec §8: the OAuth callback answers every failure with a redirect carrying its error code. */
const REDIRECTS_ITS_ERRORS = /\/callback\/:providerId /;

function expectRefused(res: LightMyRequestResponse, label: string, field: string, method: string) {
  if (REDIRECTS_ITS_ERRORS.test(label)) {
    expect([label, res.statusCode]).toEqual([label, 302]);
    return expect(res.headers.location).toMatch(/[?&]error=invalid_callback_request$/);
  }
  if (method === 'HEAD') return expect([label, res.statusCode]).toEqual([label, 400]);
  expect([label, res.statusCode, parsed(res)]).toEqual([
    label,
    400,
    {
      code: 'VALIDATION_ERROR',
      message: 'Invalid request',
      details: [{ field, problem: 'contains a character that cannot be stored' }],
    },
  ]);
}

const BODIES: Array<[string, string, string]> = [
  ['NUL in a value', '{"name":"a\\u0000b"}', 'body.name'],
  ['a lone high surrogate', '{"name":"a\\ud800b"}', 'body.name'],
  ['a lone low surrogate', '{"name":"\\udc00"}', 'body.name'],
  ['NUL in a nested key', '{"metadata":{"k\\u0000":"v"}}', 'body.metadata'],
  ['NUL deep in a list', '{"data":{"list":["ok",{"x":"\\u0000"}]}}', 'body.data.list.1.x'],
];

describe('unstorable text on every route', () => {
  it('in the query, a header or a cookie: 400, whatever the method', async () => {
    for (const { method, url } of routes) {
      const at = concrete(url);
      const headers = { origin: PUBLIC_URL, 'user-agent': AGENT };
      const inQuery = await t.app.inject({ method: method as 'GET', url: `${at}?q=a%00b`, headers });
      expectRefused(inQuery, `${method} ${url} query`, 'query.q', method);
      const inHeader = await t.app.inject({
        method: method as 'GET',
        url: at,
        headers: { ...headers, 'user-agent': 'agent\u0000' },
      });
      expectRefused(inHeader, `${method} ${url} user-agent`, 'headers.user-agent', method);
      const inCookie = await t.app.inject({
        method: method as 'GET',
        url: at,
        headers: { ...headers, cookie: 'better-auth.session_token=%00abc' },
      });
      expectRefused(inCookie, `${method} ${url} cookie`, 'cookies.better-auth.session_token', method);
    }
    expect(await writtenBySweep()).toEqual([0, 0, 0]);
  });

  it('in a JSON body: 400 on every route that takes one', async () => {
    const withBody = routes.filter((r) => r.method === 'POST');
    expect(withBody.length).toBeGreaterThan(50);
    for (const { method, url } of withBody) {
      for (const [label, payload, field] of BODIES) {
        const res = await t.app.inject({
          method: 'POST',
          url: concrete(url),
          headers: { origin: PUBLIC_URL, 'content-type': 'application/json', 'user-agent': AGENT },
          payload: `{"email":"${EMAIL}","password":"${PASSWORD}",${payload.slice(1)}`,
        });
        expectRefused(res, `${method} ${url} ${label}`, field, method);
      }
    }
    expect(await writtenBySweep()).toEqual([0, 0, 0]);
  });

  it('in the fields the routes store: 400 and nothing written (a NUL in a name answered 500 before)', async () => {
    const u = await signUp(t.app);
    const email = uniqueEmail('nul');
    const slug = `nul-${Date.now()}`;
    const cases: Array<[string, object, { jar?: typeof u.jar }]> = [
      ['/sign-up/email', { name: 'N\u0000', email, password: PASSWORD }, {}],
      ['/sign-up/email', { name: 'N\ud800', email, password: PASSWORD }, {}],
      ['/update-user', { name: 'N\u0000' }, { jar: u.jar }],
      ['/organization/create', { name: 'Org\u0000', slug }, { jar: u.jar }],
      ['/organization/create', { name: 'Org', slug, metadata: { 'k\u0000': 1 } }, { jar: u.jar }],
      ['/api-key/create', { name: 'key\u0000' }, { jar: u.jar }],
    ];
    for (const [path, body, options] of cases) {
      const res = await post(t.app, path, body, options);
      expect([path, res.statusCode, res.json().code]).toEqual([path, 400, 'VALIDATION_ERROR']);
    }
    const written = await t.ctx.sql.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM users WHERE email = $1)::int + (SELECT count(*) FROM organizations WHERE slug = $2)::int
            + (SELECT count(*) FROM api_keys WHERE user_id = $3)::int AS n`,
      [email, slug, u.userId],
    );
    expect(written[0].n).toBe(0);
    const name = (await t.ctx.sql.query('SELECT name FROM users WHERE id = $1', [u.userId]))[0].name;
    expect(name).toBe('Test User');
  });
});

import type { HTTPMethods } from 'fastify';
import { startTestApp, type TestApp } from '../setup/app';
import { readSpec, section } from '../setup/spec';

/**
 * Spec §2 lists the routes under the base path. Each one is registered, or named below with the issue that will
 * add it; the PENDING map only shrinks: once a route lands, the second test fails until it is removed here.
 */
const BASE = '/api/auth';

const PENDING: Record<string, string> = {};

const FOUNDATION = [
  'GET /ok',
  'GET /error',
  'POST /sign-up/email',
  'POST /sign-in/email',
  'GET /get-session',
  'POST /sign-out',
  'GET /list-sessions',
  'POST /revoke-session',
  'POST /revoke-sessions',
  'POST /revoke-other-sessions',
  'POST /update-user',
];

/** "followed by …" in the spec's route column → the path parameter the route is registered with. */
const TRAILING_PARAMS: Record<string, string> = {
  'followed by the provider id': ':providerId',
  'followed by the reset token': ':token',
};

/** The §2 table as "METHOD /path" entries: 'GET or POST' is both; parentheticals are notes, not part of the path. */
function specRoutes(): string[] {
  const table = section(readSpec(), '## 2. Screens and routes');
  const routes: string[] = [];
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[2].startsWith('/')) continue; // header, separator and prose
    const [, methodCell, routeCell] = cells;
    const methods = methodCell.split(/\s+or\s+/).map((m) => m.trim().toUpperCase());
    for (const m of methods)
      if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(m)) throw new Error(`unknown method in "${line}"`);
    const text = routeCell.replace(/\s*\(.*\)\s*$/, '');
    let path = text.split(/\s/)[0];
    const rest = text.slice(path.length).trim();
    if (rest) {
      const param = TRAILING_PARAMS[rest];
      if (!param) throw new Error(`spec route "${routeCell}": no rule for "${rest}"`);
      path += param;
    }
    for (const m of methods) routes.push(`${m} ${path}`);
  }
  return routes;
}

const registered = (t: TestApp, route: string) => {
  const [method, path] = route.split(' ');
  return t.app.hasRoute({ method: method as HTTPMethods, url: BASE + path });
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('spec §2 routes', () => {
  it('reads the whole table from the spec', () => {
    const routes = specRoutes();
    expect(routes).toHaveLength(28); // 27 rows, one of them "GET or POST"
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /callback/:providerId',
        'POST /callback/:providerId',
        'GET /reset-password/:token',
        'POST /reset-password',
        'POST /set-password',
        'GET /error',
      ]),
    );
    // Every PENDING entry is a spec route (no typos hiding a missing route).
    expect(Object.keys(PENDING).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('every route is registered or pending with the issue that adds it', () => {
    const missing = specRoutes().filter((r) => !registered(t, r) && !PENDING[r]);
    expect(missing).toEqual([]);
  });

  it('no pending route is registered yet (remove it from PENDING when it lands)', () => {
    const landed = Object.keys(PENDING).filter((r) => registered(t, r));
    expect(landed).toEqual([]);
  });

  it('the foundation routes exist', () => {
    expect(FOUNDATION.filter((r) => !registered(t, r))).toEqual([]);
    // The check itself can say no.
    expect(registered(t, 'GET /no-such-route')).toBe(false);
    expect(registered(t, 'PUT /sign-up/email')).toBe(false);
  });
});

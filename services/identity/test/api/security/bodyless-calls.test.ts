import type { LightMyRequestResponse } from 'fastify';
import { READS_OVER_POST } from '../../../src/http/bodyless-calls';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { type CookieJar, get, post, sessionOf, signUp } from '../../setup/fixtures';
import { registeredRoutes } from '../../setup/routes';

/**
 * spec §7: the published client sends a call without a body as GET (except the paths it pins to POST). Every
 * POST-only route answers such a GET with the route's own rule, never 404; and a GET never changes anything.
 */
const BASE = '/api/auth';
let t: TestApp;
let postOnly: string[];

beforeAll(async () => {
  t = await startTestApp();
  const routes = registeredRoutes(t.app);
  const methodsOf = (url: string) => routes.filter((r) => r.url === url).map((r) => r.method);
  postOnly = [...new Set(routes.filter((r) => r.method === 'POST' && r.url.startsWith(`${BASE}/`)).map((r) => r.url))]
    .filter((url) => !url.includes('/:')) // the OAuth callback: GET of its own
    .sort();
  expect(postOnly.length).toBeGreaterThan(50);
  expect(methodsOf(`${BASE}/sign-in/email`).sort()).toEqual(['GET', 'POST']);
});
afterAll(() => t?.close());

const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, code: res.json()?.code });
const emptyPost = (url: string, jar?: CookieJar) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: PUBLIC_URL, 'content-type': 'application/json', ...(jar ? { cookie: jar.header() } : {}) },
    payload: '{}',
  });

describe('a GET standing for a POST without a body', () => {
  it('names only registered POST routes as reads', () => {
    expect(READS_OVER_POST.filter((path) => !postOnly.includes(`${BASE}${path}`))).toEqual([]);
  });

  it('answers every POST route as its POST with `{}` would, or 405 where that POST would act; never 404 or 500', async () => {
    const refusedAsGet: string[] = [];
    for (const url of postOnly) {
      const viaGet = await t.app.inject({ method: 'GET', url });
      const viaPost = await emptyPost(url);
      expect({ url, ...answer(viaGet) }).not.toMatchObject({ status: 404 });
      expect(viaGet.statusCode).toBeLessThan(500);
      if (answer(viaGet).code === 'METHOD_NOT_ALLOWED') {
        expect({ url, status: viaGet.statusCode, allow: viaGet.headers.allow }).toEqual({
          url,
          status: 405,
          allow: 'POST',
        });
        refusedAsGet.push(url.slice(BASE.length));
      } else {
        expect({ url, ...answer(viaGet) }).toEqual({ url, ...answer(viaPost) });
      }
    }
    // Without a session, only routes whose empty body is valid and that check the caller inside the handler
    // (or need no caller) get as far as the refusal; the rest answer their own validation or session error.
    expect(refusedAsGet.sort()).toEqual(['/api-key/create', '/sign-out']);
  });

  it('has-permission (admin and organization) answers its own rule to a bodyless GET', async () => {
    const u = await signUp(t.app);
    for (const path of ['/admin/has-permission', '/organization/has-permission']) {
      const res = await get(t.app, path, { jar: u.jar });
      expect([path, res.statusCode, res.json()]).toEqual([
        path,
        400,
        { code: 'INVALID_PERMISSION_CHECK', message: 'invalid permission check. no permission(s) were passed.' },
      ]);
    }
  });

  it('changes nothing on the routes whose empty body is valid, even for a signed-in browser', async () => {
    const u = await signUp(t.app);
    const org = await post(
      t.app,
      '/organization/create',
      { name: 'Bodyless', slug: `bodyless-${Date.now()}` },
      { jar: u.jar },
    );
    expect(org.statusCode).toBe(200);
    const state = async () => ({
      user: (await t.ctx.sql.query('SELECT name, image, updated_at FROM users WHERE id = $1', [u.userId]))[0],
      sessions: (
        await t.ctx.sql.query(
          'SELECT token, active_organization_id, expires_at FROM sessions WHERE user_id = $1 ORDER BY token',
          [u.userId],
        )
      ).length,
      active: (await t.ctx.sql.query('SELECT active_organization_id FROM sessions WHERE token = $1', [u.token]))[0],
      keys: (await t.ctx.sql.query('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [u.userId]))[0].n,
    });
    // A second session, so revoke-other-sessions would have something to revoke.
    await post(t.app, '/sign-in/email', { email: u.email, password: u.password });
    const before = await state();
    const acting = [
      '/update-user',
      '/sign-out',
      '/revoke-sessions',
      '/revoke-other-sessions',
      '/delete-user',
      '/api-key/create',
      '/organization/set-active',
    ];
    for (const path of acting) {
      const res = await get(t.app, path, { jar: u.jar, headers: { 'sec-fetch-site': 'cross-site' } });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 405, 'METHOD_NOT_ALLOWED']);
    }
    expect(await state()).toEqual(before);
    expect((await sessionOf(t.app, { jar: u.jar }, '?disableCookieCache=true'))?.user.id).toBe(u.userId);
  });
});

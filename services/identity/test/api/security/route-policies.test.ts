import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/config/defaults';
import * as sessionGuards from '../../../src/http/require-session';
import { type DeclaredRoute, rateLimitRule } from '../../../src/http/route-policy';
import { startTestApp, type TestApp } from '../../setup/app';
import { registeredRoutes } from '../../setup/routes';
import { readDoc, section } from '../../setup/spec';

/**
 * Each route states its policies in its own options (`config.policy`, src/http/route-policy.ts): whether a user's
 * API key may stand for a session there, its per-address rate limit, and whether it gets the bot check. No path
 * list elsewhere decides them. Below, what the routes must declare: the defaults docs/api-keys.md,
 * docs/configuration.md and docs/social-sign-in.md state.
 */
const BASE = '/api/auth';

const REFUSES_API_KEYS = [
  '/change-password',
  '/set-password',
  '/change-email',
  '/delete-user',
  '/delete-user/callback',
  '/list-sessions',
  '/revoke-session',
  '/revoke-sessions',
  '/revoke-other-sessions',
  '/admin/impersonate-user',
  '/admin/stop-impersonating',
  '/organization/set-active',
  '/link-social',
  '/unlink-account',
  '/token',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
  '/passkey/update-passkey',
  '/passkey/delete-passkey',
  '/email-otp/request-email-change',
  '/email-otp/change-email',
  // the OpenID provider's consent API (docs/oidc-provider.md): a person answers
  '/interaction/:uid',
  '/interaction/:uid/consent',
];

/** [windowSec, max] per client address. */
const RATE_LIMITS: Record<string, [number, number]> = {
  '/sign-in/email': [60, 10],
  '/sign-up/email': [60, 5],
  '/sign-in/social': [60, 30],
  '/request-password-reset': [60, 5],
  '/forget-password': [60, 5],
  '/reset-password': [60, 10],
  '/send-verification-email': [60, 5],
  '/change-email': [60, 5],
  '/change-password': [60, 10],
  '/delete-user': [60, 5],
  '/organization/invite-member': [60, 30],
  '/two-factor/verify-totp': [60, 10],
  '/two-factor/verify-backup-code': [60, 10],
  '/two-factor/enable': [60, 10],
  '/two-factor/disable': [60, 10],
  '/two-factor/get-totp-uri': [60, 10],
  '/two-factor/generate-backup-codes': [60, 10],
  '/passkey/generate-authenticate-options': [60, 30],
  '/passkey/verify-authentication': [60, 10],
  '/passkey/generate-register-options': [60, 10],
  '/passkey/verify-registration': [60, 10],
  '/passkey/update-passkey': [60, 30],
  '/passkey/delete-passkey': [60, 10],
  // passwordless (docs/passwordless.md): a send may mail, a verify tries a link or a code
  '/sign-in/magic-link': [60, 5],
  '/magic-link/verify': [60, 10],
  '/email-otp/send-verification-otp': [60, 5],
  '/sign-in/email-otp': [60, 10],
  '/email-otp/check-verification-otp': [60, 10],
  '/email-otp/verify-email': [60, 10],
  '/email-otp/request-password-reset': [60, 5],
  '/forget-password/email-otp': [60, 5],
  '/email-otp/reset-password': [60, 10],
  '/email-otp/request-email-change': [60, 5],
  '/email-otp/change-email': [60, 10],
  // the OpenID provider (docs/oidc-provider.md): a request that starts an authorization, a client's own calls
  '/oauth2/authorize': [60, 30],
  '/oauth2/par': [60, 30],
  '/oauth2/token': [60, 120],
  '/oauth2/introspect': [60, 120],
  '/oauth2/revoke': [60, 120],
};

const BOT_CHECKED = ['/sign-up/email', '/sign-in/email', '/request-password-reset', '/forget-password'];

let t: TestApp;
let declared: DeclaredRoute[];
beforeAll(async () => {
  // every route registered: the passwordless methods and the OpenID provider too (off by default; the provider
  // needs the hosted pages, here a stand-in build)
  const pages = mkdtempSync(join(tmpdir(), 'policy-pages-'));
  writeFileSync(
    join(pages, 'index.html'),
    '<!doctype html><html><head><title>pages</title></head><body></body></html>',
  );
  t = await startTestApp(
    { magicLink: { enabled: true }, emailOtp: { enabled: true } },
    { OIDC_PROVIDER_ENABLED: 'true', HOSTED_PAGES_ENABLED: 'true', HOSTED_PAGES_DIR: pages },
  );
  declared = t.app.routePolicies.routes();
});
afterAll(() => t?.close());

/** The paths with a route whose own options declare `pick`, each once. */
const pathsWhere = (pick: (route: DeclaredRoute) => boolean) => [...new Set(declared.filter(pick).map((r) => r.path))];

describe('route-declared policies', () => {
  it('no path list holds them: the session guard, the rate-limit rules and the bot check read the routes', () => {
    expect(Object.keys(sessionGuards)).not.toContain('API_KEY_REFUSED_ROUTES');
    expect(defaultConfig().rateLimit.rules).toEqual({});
    expect(defaultConfig().captcha.endpoints).toBeUndefined();
  });

  it('sees every route under the base path', () => {
    const seen = new Set(declared.map((r) => `${r.method} ${r.path}`));
    // (printRoutes shows a wildcard route without its slash: those are the API reference's files, left out.)
    const routes = registeredRoutes(t.app).filter(
      (r) => r.url.startsWith(`${BASE}/`) && r.method !== 'HEAD' && !r.url.endsWith('*'),
    );
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.map((r) => `${r.method} ${r.url.slice(BASE.length)}`).filter((r) => !seen.has(r))).toEqual([]);
  });

  it('the routes a key may not stand for a session on say so in their own options (every method of the path)', () => {
    expect(pathsWhere((r) => r.policy.apiKeys === 'refused').sort()).toEqual([...REFUSES_API_KEYS].sort());
    for (const path of REFUSES_API_KEYS) {
      const routes = declared.filter((r) => r.path === path);
      expect([path, routes.length > 0]).toEqual([path, true]);
      for (const route of routes)
        expect([route.method, path, route.policy.apiKeys]).toEqual([route.method, path, 'refused']);
    }
  });

  it('the rate-limited routes declare their rule, and a GET twin shares its POST route’s', () => {
    expect(pathsWhere((r) => r.policy.rateLimit !== undefined).sort()).toEqual(Object.keys(RATE_LIMITS).sort());
    for (const route of declared.filter((r) => r.policy.rateLimit !== undefined)) {
      const rule = rateLimitRule(route.policy);
      expect([route.method, route.path, rule?.windowSec, rule?.max]).toEqual([
        route.method,
        route.path,
        ...RATE_LIMITS[route.path],
      ]);
    }
  });

  it('the bot-checked routes declare it, on POST (the check reads POST requests only)', () => {
    expect(t.app.routePolicies.botChecked()).toEqual(BOT_CHECKED);
    for (const path of pathsWhere((r) => r.policy.botCheck === true))
      expect([path, declared.some((r) => r.path === path && r.method === 'POST')]).toEqual([path, true]);
  });

  it('docs/configuration.md lists each route’s declared policies', () => {
    const table = section(readDoc('configuration.md'), '## Route policies');
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| `/'))
      .map((line) => line.split('|').map((c) => c.trim()));
    const documented = Object.fromEntries(
      rows.map(([, path, keys, limit, bot]) => [path.replaceAll('`', ''), { keys, limit, bot }]),
    );
    const expected: Record<string, { keys: string; limit: string; bot: string }> = {};
    for (const path of pathsWhere((r) => Object.keys(r.policy).length > 0)) {
      const policy =
        declared.find((r) => r.path === path && r.method !== 'GET')?.policy ??
        declared.find((r) => r.path === path)!.policy;
      const rule = rateLimitRule(policy);
      expected[path] = {
        keys: policy.apiKeys === 'refused' ? 'refused' : '',
        limit: rule ? `${rule.max} per ${rule.windowSec} s` : '',
        bot: policy.botCheck ? 'yes' : '',
      };
    }
    expect(documented).toEqual(expected);
  });
});

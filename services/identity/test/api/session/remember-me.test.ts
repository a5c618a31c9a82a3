import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, DATA_COOKIE, get, PASSWORD, post, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';

/**
 * spec §4 rememberMe: false: both session cookies are browser-session cookies (no Max-Age, no Expires) on every
 * answer that sets them, not only at sign-in. The cache cookie still ends after its max age: its signed payload
 * carries the expiry.
 */
let t: TestApp;
const UPDATE_AGE_SEC = 300;
beforeAll(async () => {
  t = await startTestApp({}, { SESSION_UPDATE_AGE_SEC: String(UPDATE_AGE_SEC) });
});
afterAll(() => t.close());

/** Every Set-Cookie line of the two session cookies in `res` (a clearing line has Max-Age=0 and is not asked for). */
function sessionCookieLines(res: LightMyRequestResponse): string[] {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return raw.filter((line) => line.startsWith(`${TOKEN_COOKIE}=`) || line.startsWith(`${DATA_COOKIE}=`));
}

const lifetimeAttributes = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((a) => a.trim().split('=')[0].toLowerCase())
    .filter((name) => name === 'max-age' || name === 'expires');

/** The expiry (epoch ms) signed into a cache cookie value: `base64url("<exp>|<body>").<HMAC>`. */
const signedExpiry = (value: string) =>
  Number(
    Buffer.from(value.slice(0, value.lastIndexOf('.')), 'base64url')
      .toString()
      .split('|')[0],
  );

describe('rememberMe: false keeps browser-session cookies on every answer', () => {
  it('sign-in, cache refresh, renewal, update-user, set-active and change-password set neither Max-Age nor Expires', async () => {
    const u = await signUp(t.app);
    const jar = new CookieJar();
    const seen: Array<[string, string]> = [];
    const record = (step: string, res: LightMyRequestResponse) => {
      expect([step, res.statusCode]).toEqual([step, 200]);
      for (const line of sessionCookieLines(res)) seen.push([step, line]);
      jar.store(res);
    };

    record('sign-in', await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD, rememberMe: false }));
    const cacheValue = jar.get(DATA_COOKIE)!;
    expect(signedExpiry(cacheValue)).toBe(t.clock.now() + t.config.session.cookieCacheMaxAgeSec * 1000);

    t.clock.advance(t.config.session.cookieCacheMaxAgeSec + 1); // the cache cookie's payload has expired
    const refreshed = await get(t.app, '/get-session', { jar });
    expect(sessionCookieLines(refreshed).map((l) => l.split('=')[0])).toEqual([DATA_COOKIE]);
    record('cache refresh', refreshed);

    t.clock.advance(UPDATE_AGE_SEC + 1); // past the update age: renewed, both cookies sent again
    const renewed = await get(t.app, '/get-session', { jar });
    expect(
      sessionCookieLines(renewed)
        .map((l) => l.split('=')[0])
        .sort(),
    ).toEqual([DATA_COOKIE, TOKEN_COOKIE]);
    record('renewal', renewed);

    record('update-user', await post(t.app, '/update-user', { name: 'Renamed' }, { jar }));
    const slug = `rm-${Date.now().toString(36)}`;
    const org = await post(
      t.app,
      '/organization/create',
      { name: 'Remember', slug, keepCurrentActiveOrganization: true },
      { jar },
    );
    record('organization create', org);
    record('set-active', await post(t.app, '/organization/set-active', { organizationId: org.json().id }, { jar }));
    record(
      'change-password',
      await post(
        t.app,
        '/change-password',
        { currentPassword: PASSWORD, newPassword: 'another long passphrase', revokeOtherSessions: true },
        { jar },
      ),
    );

    const steps = new Set(seen.map(([step]) => step));
    for (const step of ['sign-in', 'cache refresh', 'renewal', 'update-user', 'set-active', 'change-password'])
      expect([step, steps.has(step)]).toEqual([step, true]);
    for (const [step, line] of seen)
      expect([step, line.split('=')[0], lifetimeAttributes(line)]).toEqual([step, line.split('=')[0], []]);
    // The newest cache cookie still expires after its max age, by its signed payload.
    expect(signedExpiry(jar.get(DATA_COOKIE)!)).toBe(t.clock.now() + t.config.session.cookieCacheMaxAgeSec * 1000);
    t.clock.advance(t.config.session.cookieCacheMaxAgeSec + 1);
    const stale = await get(t.app, '/get-session', { jar });
    expect(sessionCookieLines(stale).map((l) => l.split('=')[0])).toEqual([DATA_COOKIE]); // not answered from it
  });

  it('sign-up with rememberMe: false gives browser-session cookies too', async () => {
    const res = await post(t.app, '/sign-up/email', {
      name: 'Forgetful',
      email: uniqueEmail(),
      password: PASSWORD,
      rememberMe: false,
    });
    const lines = sessionCookieLines(res);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(lifetimeAttributes(line)).toEqual([]);
  });

  it('a remembered session keeps Max-Age on both cookies (the cache cookie: its max age)', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/sign-in/email', { email: u.email, password: PASSWORD });
    const byName = new Map(sessionCookieLines(res).map((line) => [line.split('=')[0], line]));
    expect(byName.get(TOKEN_COOKIE)).toMatch(new RegExp(`Max-Age=${t.config.session.expiresInSec}`));
    expect(byName.get(DATA_COOKIE)).toMatch(new RegExp(`Max-Age=${t.config.session.cookieCacheMaxAgeSec}`));
  });
});

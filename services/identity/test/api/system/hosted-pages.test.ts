import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { get, post, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

/**
 * The hosted sign-in pages (docs/hosted-pages.md): served at HOSTED_PAGES_PATH (/auth) when enabled, with headers
 * of their own, config.json from the settings, and a callbackURL checked against the trusted origins (spec §5)
 * before any page is shown with it.
 */
const dir = mkdtempSync(join(tmpdir(), 'hosted-dist-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><html><head><base href="/" /><title>Sign in</title><script type="module" src="./assets/app-9f8e.js"></script></head><body><div id="root"></div></body></html>',
);
writeFileSync(join(dir, 'assets', 'app-9f8e.js'), 'console.log("pages");');
writeFileSync(join(dir, 'config.json'), '{"api":"https://elsewhere.example/api/auth"}');
writeFileSync(join(dir, '.env'), 'SECRET=1');
const ENABLED = { HOSTED_PAGES_ENABLED: 'true', HOSTED_PAGES_DIR: dir };

let on: TestApp;
afterAll(async () => {
  await on?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hosted pages serving', () => {
  it('is off by default: /auth is not found', async () => {
    const off = await startTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/auth/sign-in' });
      expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
    } finally {
      await off.close();
    }
  });

  it('refuses to start when the directory holds no index.html, naming the setting', async () => {
    await expect(startTestApp({}, { ...ENABLED, HOSTED_PAGES_DIR: join(dir, 'assets') })).rejects.toThrow(
      /HOSTED_PAGES_DIR: .*has no index\.html/,
    );
  });

  describe('enabled', () => {
    beforeAll(async () => {
      on = await startTestApp(
        {
          hostedPages: {
            productName: 'Acme',
            links: { support: 'https://help.acme.test/', home: 'https://acme.test/home' },
          },
          social: { providers: { github: { clientId: 'gh-client', clientSecret: 'gh-secret' } } },
        },
        { ...ENABLED, PASSWORD_MIN_LENGTH: '10' },
      );
    });
    const fetchPath = (url: string) => on.app.inject({ method: 'GET', url });

    it('serves each page as index.html with its <base> at the pages path, under a strict CSP', async () => {
      for (const page of ['/auth/', '/auth/sign-in', '/auth/sign-up', '/auth/reset-password', '/auth/error']) {
        const res = await fetchPath(page);
        expect([page, res.statusCode]).toEqual([page, 200]);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<base href="/auth/" />');
        expect(res.body).not.toContain('<base href="/" />');
        expect(res.headers['cache-control']).toBe('no-cache');
      }
      const res = await fetchPath('/auth/sign-in');
      const csp = Object.fromEntries(
        String(res.headers['content-security-policy'])
          .split('; ')
          .map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
      );
      expect(csp).toMatchObject({
        'default-src': "'none'",
        'script-src': "'self'",
        'style-src': "'self'",
        'connect-src': "'self'",
        'frame-ancestors': "'none'",
        'frame-src': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
      });
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    });

    it('/auth redirects to /auth/ with its query (relative asset URLs need the slash)', async () => {
      const res = await fetchPath('/auth?lang=de');
      expect([res.statusCode, res.headers.location]).toEqual([301, '/auth/?lang=de']);
    });

    it('hashed assets are cached for a year; a missing file is a 404; dotfiles and parents are never served', async () => {
      const asset = await fetchPath('/auth/assets/app-9f8e.js');
      expect([asset.statusCode, asset.body]).toEqual([200, 'console.log("pages");']);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const missing = await fetchPath('/auth/assets/gone-0000.js');
      expect([missing.statusCode, missing.json().code]).toEqual([404, 'NOT_FOUND']);
      expect((await fetchPath('/auth/.env')).body).not.toContain('SECRET');
      for (const url of ['/auth/../package.json', '/auth/%2e%2e/package.json', '/auth/..%2fpackage.json'])
        expect((await fetchPath(url)).body).not.toContain('"name"');
    });

    it('config.json comes from the settings (not the built file), readable from any origin, never cached', async () => {
      const res = await fetchPath('/auth/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        api: '/api/auth',
        productName: 'Acme',
        logoUrl: null,
        colors: {},
        links: { support: 'https://help.acme.test/', terms: null, privacy: null, home: 'https://acme.test/home' },
        defaultLanguage: 'ENG',
        methods: {
          emailPassword: true,
          signUp: true,
          social: [{ id: 'github', name: 'GitHub' }],
          passkey: true,
          magicLink: false,
          emailOtp: false,
        },
        verifyOnSignUp: false,
        password: { minLength: 10, maxLength: 128 },
        twoFactor: { trustDeviceDays: 30 },
        callback: 'none',
        captcha: null,
      });
    });

    it("config.json gives the service's verdict on a callbackURL: trusted origins and plain paths only", async () => {
      const verdict = async (callbackURL: string) =>
        (await fetchPath(`/auth/config.json?callbackURL=${encodeURIComponent(callbackURL)}`)).json().callback;
      expect(await verdict(`${TRUSTED_ORIGIN}/home`)).toBe('allowed');
      expect(await verdict('/dashboard?tab=1')).toBe('allowed');
      for (const bad of [
        'https://evil.example/',
        '//evil.example/x',
        '/\\evil.example',
        'javascript:alert(1)',
        '/a/../b',
      ])
        expect([bad, await verdict(bad)]).toEqual([bad, 'refused']);
    });

    it('the verdict covers a newUserCallbackURL too (a mailed sign-in link carries one): refused if either is', async () => {
      const verdict = async (query: string) => (await fetchPath(`/auth/config.json?${query}`)).json().callback;
      const evil = encodeURIComponent('https://evil.example/welcome');
      const trusted = encodeURIComponent(`${TRUSTED_ORIGIN}/welcome`);
      expect(await verdict(`newUserCallbackURL=${trusted}`)).toBe('allowed');
      expect(await verdict(`callbackURL=%2Fhome&newUserCallbackURL=${trusted}`)).toBe('allowed');
      expect(await verdict(`newUserCallbackURL=${evil}`)).toBe('refused');
      expect(await verdict(`callbackURL=%2Fhome&newUserCallbackURL=${evil}`)).toBe('refused');
      const page = await fetchPath(`/auth/magic-link?token=abc&callbackURL=%2Fhome&newUserCallbackURL=${evil}`);
      expect([page.statusCode, page.headers.location]).toEqual([303, '/auth/error?error=INVALID_CALLBACK_URL']);
      const fine = await fetchPath(`/auth/magic-link?token=abc&newUserCallbackURL=${trusted}`);
      expect(fine.statusCode).toBe(200);
    });

    it('a page asked with an untrusted callbackURL sends the browser to the error page, never to that URL', async () => {
      const res = await fetchPath(
        `/auth/sign-in?callbackURL=${encodeURIComponent('https://evil.example/steal')}&lang=de`,
      );
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/error?error=INVALID_CALLBACK_URL&lang=de');
      const root = await fetchPath(`/auth/?callbackURL=${encodeURIComponent('https://evil.example/')}`);
      expect([root.statusCode, root.headers.location]).toEqual([303, '/auth/error?error=INVALID_CALLBACK_URL']);
      const trusted = await fetchPath(`/auth/sign-in?callbackURL=${encodeURIComponent(`${TRUSTED_ORIGIN}/home`)}`);
      expect(trusted.statusCode).toBe(200);
    });

    it('the API keeps its own headers', async () => {
      const res = await fetchPath('/api/auth/ok');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    });
  });

  it('offers sign-up and trusted devices only when the service allows them, and lets the logo through the CSP', async () => {
    const app = await startTestApp(
      { hostedPages: { logoUrl: 'https://cdn.acme.test/logo.svg', methods: { social: [] } } },
      { ...ENABLED, SIGN_UP_DISABLED: 'true', TWO_FACTOR_TRUST_DEVICE_DAYS: '0' },
    );
    try {
      const config = (await app.app.inject({ method: 'GET', url: '/auth/config.json' })).json();
      expect(config.methods).toEqual({
        emailPassword: true,
        signUp: false,
        social: [],
        passkey: true,
        magicLink: false,
        emailOtp: false,
      });
      // No trusted devices: the second-factor step offers no "trust this device".
      expect(config.twoFactor).toEqual({ trustDeviceDays: 0 });
      const csp = String((await app.app.inject({ method: 'GET', url: '/auth/' })).headers['content-security-policy']);
      expect(csp).toContain("img-src 'self' data: https://cdn.acme.test;");
      expect(csp).toContain("frame-ancestors 'none'");
    } finally {
      await app.close();
    }
  });

  describe('passkeys (methods.passkey)', () => {
    const passkeyFor = async (app: TestApp, origin?: string) =>
      (await app.app.inject({ method: 'GET', url: '/auth/config.json', headers: origin ? { origin } : {} })).json()
        .methods.passkey;

    it("are offered to pages whose origin the relying party accepts: the service's own, or a copy's that says so", async () => {
      // The relying party is the trusted origin's domain: a copy there runs ceremonies, the service's own pages
      // (PUBLIC_URL, on localhost) cannot.
      const app = await startTestApp({}, { ...ENABLED, PASSKEY_RP_ID: 'example.test' });
      try {
        const res = await app.app.inject({ method: 'GET', url: '/auth/config.json' });
        expect(res.headers.vary).toBe('Origin');
        expect(res.json().methods.passkey).toBe(false);
        expect(await passkeyFor(app, TRUSTED_ORIGIN)).toBe(true);
        expect(await passkeyFor(app, 'https://other.example.test')).toBe(false);
        expect(await passkeyFor(app, 'null')).toBe(false);
      } finally {
        await app.close();
      }
      // By default (PUBLIC_URL's host) the service's own pages do, a copy elsewhere does not.
      const own = await startTestApp({}, ENABLED);
      try {
        expect(await passkeyFor(own)).toBe(true);
        expect(await passkeyFor(own, TRUSTED_ORIGIN)).toBe(false);
      } finally {
        await own.close();
      }
    });

    it('are not offered when the setting turns them off, or the relying party id is an IP address (browsers refuse it)', async () => {
      const off = await startTestApp({ hostedPages: { methods: { passkey: false } } }, ENABLED);
      try {
        expect(await passkeyFor(off)).toBe(false);
      } finally {
        await off.close();
      }
      const ip = await startTestApp(
        {},
        { ...ENABLED, PASSKEY_RP_ID: '127.0.0.1', PASSKEY_ORIGINS: 'http://127.0.0.1:3000' },
      );
      try {
        expect(await passkeyFor(ip, 'http://127.0.0.1:3000')).toBe(false);
      } finally {
        await ip.close();
      }
    });
  });

  describe('with a bot check', () => {
    const CAPTCHA = { CAPTCHA_SECRET_KEY: 'provider-secret', CAPTCHA_SITE_KEY: 'site-key-1' };
    const directives = (csp: string) =>
      Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

    // Each provider's documented sources, and nothing else of a third party (docs/hosted-pages.md, safety).
    it.each([
      [
        'cloudflare-turnstile',
        'https://challenges.cloudflare.com/turnstile/v0/api.js',
        {
          'script-src': "'self' https://challenges.cloudflare.com",
          'frame-src': 'https://challenges.cloudflare.com',
          'style-src': "'self'",
          'connect-src': "'self'",
        },
      ],
      [
        'google-recaptcha',
        'https://www.google.com/recaptcha/api.js',
        {
          'script-src': "'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
          'frame-src': 'https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/',
          'style-src': "'self'",
          'connect-src': "'self'",
        },
      ],
      [
        'hcaptcha',
        'https://js.hcaptcha.com/1/api.js',
        {
          'script-src': "'self' https://hcaptcha.com https://*.hcaptcha.com",
          'frame-src': 'https://hcaptcha.com https://*.hcaptcha.com',
          'style-src': "'self' https://hcaptcha.com https://*.hcaptcha.com",
          'connect-src': "'self' https://hcaptcha.com https://*.hcaptcha.com",
        },
      ],
    ])(
      '%s: config.json names the widget (never the secret), the CSP allows its sources only',
      async (provider, script, csp) => {
        const app = await startTestApp({}, { ...ENABLED, ...CAPTCHA, CAPTCHA_PROVIDER: provider });
        try {
          const res = await app.app.inject({ method: 'GET', url: '/auth/config.json' });
          expect(res.json().captcha).toEqual({
            provider,
            siteKey: 'site-key-1',
            scriptUrl: script,
            endpoints: ['/sign-up/email', '/sign-in/email', '/request-password-reset', '/forget-password'],
          });
          expect(res.body).not.toContain('provider-secret');
          const page = await app.app.inject({ method: 'GET', url: '/auth/sign-in' });
          expect(directives(String(page.headers['content-security-policy']))).toMatchObject({
            ...csp,
            'default-src': "'none'",
            'img-src': "'self' data:",
          });
        } finally {
          await app.close();
        }
      },
    );

    it("captcha.endpoints: the pages ask for a token on the operator's paths instead of the routes' own", async () => {
      const endpoints = ['/sign-up/email', '/send-verification-email'];
      const app = await startTestApp(
        { captcha: { endpoints } },
        { ...ENABLED, ...CAPTCHA, CAPTCHA_PROVIDER: 'hcaptcha' },
      );
      try {
        const res = await app.app.inject({ method: 'GET', url: '/auth/config.json' });
        expect(res.json().captcha.endpoints).toEqual(endpoints);
      } finally {
        await app.close();
      }
    });

    it("CAPTCHA_SCRIPT_URL: the pages load that script, and its origin joins the provider's script and frame sources", async () => {
      const app = await startTestApp(
        {},
        {
          ...ENABLED,
          ...CAPTCHA,
          CAPTCHA_PROVIDER: 'cloudflare-turnstile',
          CAPTCHA_SCRIPT_URL: 'http://127.0.0.1:4555/turnstile/v0/api.js',
        },
      );
      try {
        const config = (await app.app.inject({ method: 'GET', url: '/auth/config.json' })).json();
        expect(config.captcha.scriptUrl).toBe('http://127.0.0.1:4555/turnstile/v0/api.js');
        const page = await app.app.inject({ method: 'GET', url: '/auth/sign-in' });
        expect(directives(String(page.headers['content-security-policy']))).toMatchObject({
          'script-src': "'self' https://challenges.cloudflare.com http://127.0.0.1:4555",
          'frame-src': 'https://challenges.cloudflare.com http://127.0.0.1:4555',
          'connect-src': "'self'",
        });
      } finally {
        await app.close();
      }
    });

    it('refuses to start without the site key the widget needs, naming the setting', async () => {
      await expect(
        startTestApp({}, { ...ENABLED, CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SECRET_KEY: 'provider-secret' }),
      ).rejects.toThrow(/CAPTCHA_SITE_KEY: required when the hosted pages are enabled/);
    });
  });
});

describe('mailed links without a callback lead to the hosted pages', () => {
  let t: MailStack;
  beforeAll(async () => {
    // No session is fresh: deletion always mails its confirmation link.
    t = await startMailStack({}, { ...ENABLED, SESSION_FRESH_AGE_SEC: '0', MAGIC_LINK_ENABLED: 'true' });
  }, 60_000);
  afterAll(() => t?.close());

  it('reset, verification, change of email, deletion and invitation mails lead to their pages; a given callback still wins', async () => {
    const u = await signUp(t.app);
    await post(t.app, '/request-password-reset', { email: u.email });
    expect(t.linkIn(await t.mailTo(u.email)).searchParams.get('callbackURL')).toBe('/auth/reset-password');
    t.sink.clear();
    await post(t.app, '/send-verification-email', { email: u.email });
    const verify = t.linkIn(await t.mailTo(u.email));
    expect(verify.pathname).toBe('/api/auth/verify-email');
    expect(verify.searchParams.get('callbackURL')).toBe('/auth/email-verified');
    t.sink.clear();
    t.clock.advance(5);
    const deletion = await post(t.app, '/delete-user', {}, { jar: u.jar });
    expect(deletion.json()).toMatchObject({ message: 'Verification email sent' });
    const confirm = t.linkIn(await t.mailTo(u.email));
    expect([confirm.pathname, confirm.searchParams.get('callbackURL')]).toEqual([
      '/api/auth/delete-user/callback',
      '/auth/delete-account',
    ]);
    t.sink.clear();
    const verified = await signUp(t.app);
    await t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [verified.userId]);
    const moving = await post(
      t.app,
      '/change-email',
      { newEmail: `moved-${Date.now()}@example.com` },
      { jar: verified.jar },
    );
    expect(moving.statusCode).toBe(200);
    const change = t.linkIn(await t.mailTo(verified.email));
    expect([change.pathname, change.searchParams.get('callbackURL')]).toEqual([
      '/api/auth/verify-email',
      '/auth/email-changed',
    ]);
    t.sink.clear();
    const owner = await signUp(t.app);
    const org = await post(
      t.app,
      '/organization/create',
      { name: 'Orbit', slug: `orbit-${Date.now()}` },
      { jar: owner.jar },
    );
    expect(org.statusCode).toBe(200);
    const invitee = `invitee-${Date.now()}@example.com`;
    const invited = await post(
      t.app,
      '/organization/invite-member',
      { email: invitee, role: 'member' },
      { jar: owner.jar },
    );
    expect(invited.statusCode).toBe(200);
    const invitation = t.linkIn(await t.mailTo(invitee));
    expect(invitation.pathname).toBe(`/auth/invitation/${invited.json().id}`);
    t.sink.clear();
    await post(t.app, '/request-password-reset', { email: u.email, redirectTo: `${TRUSTED_ORIGIN}/reset` });
    expect(t.linkIn(await t.mailTo(u.email)).searchParams.get('callbackURL')).toBe(`${TRUSTED_ORIGIN}/reset`);
  });

  it('a sign-in link opens the magic-link page, carrying the callbackURL and the newUserCallbackURL asked with', async () => {
    const u = await signUp(t.app);
    const asked = await post(t.app, '/sign-in/magic-link', {
      email: u.email,
      callbackURL: `${TRUSTED_ORIGIN}/home`,
      newUserCallbackURL: '/welcome',
    });
    expect(asked.statusCode).toBe(200);
    const link = t.linkIn(await t.mailTo(u.email));
    expect(link.pathname).toBe('/auth/magic-link');
    expect(link.searchParams.get('callbackURL')).toBe(`${TRUSTED_ORIGIN}/home`);
    expect(link.searchParams.get('newUserCallbackURL')).toBe('/welcome');
  });
});

describe('the mailed deletion link without a callback asks first on the hosted pages', () => {
  let t: MailStack;
  beforeAll(async () => {
    t = await startMailStack({}, { ...ENABLED, SESSION_FRESH_AGE_SEC: '0' });
  }, 60_000);
  afterAll(() => t?.close());

  /** A user, the deletion mail's link, and the link's token. */
  async function mailedLink(callbackURL?: string) {
    const u = await signUp(t.app);
    t.clock.advance(5);
    const asked = await post(t.app, '/delete-user', callbackURL ? { callbackURL } : {}, { jar: u.jar });
    expect(asked.json()).toMatchObject({ message: 'Verification email sent' });
    const link = t.linkIn(await t.mailTo(u.email));
    return { u, link, token: link.searchParams.get('token') ?? '' };
  }
  const exists = async (id: string) => (await t.ctx.sql.query('SELECT 1 FROM users WHERE id = $1', [id])).length === 1;

  it('leads to the confirmation page with its token, deleting nothing, session or not; the page then deletes with the token', async () => {
    const { u, link, token } = await mailedLink();
    expect(token).toMatch(/^[a-z0-9]{32}$/);
    for (const jar of [undefined, u.jar]) {
      const res = await get(t.app, `${link.pathname.slice('/api/auth'.length)}${link.search}`, { jar });
      expect([res.statusCode, res.headers.location]).toEqual([303, `/auth/delete-account?token=${token}`]);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await exists(u.userId)).toBe(true);
    // What the page's button sends: POST /delete-user with the token, with the user's session.
    const confirmed = await post(t.app, '/delete-user', { token }, { jar: u.jar });
    expect([confirmed.statusCode, confirmed.json()]).toEqual([200, { success: true, message: 'User deleted' }]);
    expect(await exists(u.userId)).toBe(false);
    // Spent: the same call again is refused (the session went with the user).
    const again = await post(t.app, '/delete-user', { token }, { jar: u.jar });
    expect(again.statusCode).toBe(401);
  });

  it("a product's own callbackURL keeps the route as it was: following the link deletes, then redirects there", async () => {
    const { u, link } = await mailedLink(`${TRUSTED_ORIGIN}/goodbye`);
    expect(link.searchParams.get('callbackURL')).toBe(`${TRUSTED_ORIGIN}/goodbye`);
    const path = `${link.pathname.slice('/api/auth'.length)}${link.search}`;
    // Without the user's session the link does nothing (the API's rule).
    expect((await get(t.app, path)).statusCode).toBe(401);
    expect(await exists(u.userId)).toBe(true);
    const res = await get(t.app, path, { jar: u.jar });
    expect([res.statusCode, res.headers.location]).toEqual([302, `${TRUSTED_ORIGIN}/goodbye`]);
    expect(await exists(u.userId)).toBe(false);
  });
});

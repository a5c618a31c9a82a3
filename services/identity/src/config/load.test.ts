import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, ENV_SETTINGS, loadConfig } from './index';

const SECRET = 's'.repeat(40);

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      basePath: '/api/auth',
      publicUrl: 'http://localhost:3000',
      secretIsDevelopmentDefault: true,
    });
    expect(c.session).toMatchObject({ cookieCacheMaxAgeSec: 60, cookiePrefix: 'better-auth' });
    expect(c.password).toEqual({ minLength: 8, maxLength: 128 });
    expect(c.argon2).toEqual({ memoryKiB: 47104, timeCost: 1, parallelism: 1 });
    expect(c.rateLimit.enabled).toBe(true);
  });

  it('reads every setting from the environment', () => {
    const c = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://id.example.com/',
      AUTH_BASE_PATH: '/auth/',
      AUTH_SECRET: SECRET,
      TRUSTED_ORIGINS: 'https://app.example.com, https://*.example.org',
      RATE_LIMIT_ENABLED: 'false',
      SESSION_EXPIRES_IN_SEC: '3600',
      SESSION_UPDATE_AGE_SEC: '600',
      SIGN_UP_DISABLED: 'true',
      FEATURE_ADMIN: 'false',
      TRUST_PROXY: '1',
    });
    expect(c).toMatchObject({ port: 8080, publicUrl: 'https://id.example.com', basePath: '/auth', secret: SECRET });
    expect(c.secretIsDevelopmentDefault).toBe(false);
    expect(c.trustedOrigins).toEqual(['https://app.example.com', 'https://*.example.org']);
    expect(c.rateLimit.enabled).toBe(false);
    expect(c.session).toMatchObject({ expiresInSec: 3600, updateAgeSec: 600 });
    expect(c.emailAndPassword.disableSignUp).toBe(true);
    expect(c.features.admin).toBe(false);
    expect(c.trustProxy).toBe(1);
  });

  it('merges a YAML or JSON config file under the environment', () => {
    const yaml = join(tmpdir(), `identity-config-${process.pid}.yaml`);
    writeFileSync(
      yaml,
      'session:\n  expiresInSec: 7200\n  updateAgeSec: 600\npassword:\n  minLength: 12\nrateLimit:\n  rules:\n    /sign-in/email: { windowSec: 10, max: 2 }\n',
    );
    const c = loadConfig({ CONFIG_FILE: yaml, PASSWORD_MIN_LENGTH: '10' });
    expect(c.session.expiresInSec).toBe(7200);
    expect(c.password.minLength).toBe(10);
    expect(c.rateLimit.rules['/sign-in/email']).toEqual({ windowSec: 10, max: 2 });
    expect(c.rateLimit.global).toEqual({ windowSec: 60, max: 600 }); // the defaults beside the file's rule stay
    const json = join(tmpdir(), `identity-config-${process.pid}.json`);
    writeFileSync(json, JSON.stringify({ features: { organization: false } }));
    expect(loadConfig({ CONFIG_FILE: json }).features.organization).toBe(false);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT="abc": expected a whole number/],
    [{ PORT: '70000' }, /PORT: setting "port" must be <= 65535/],
    [{ RATE_LIMIT_ENABLED: 'maybe' }, /^RATE_LIMIT_ENABLED="maybe": expected true or false/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL=.*only http and https/],
    [{ TRUSTED_ORIGINS: 'https://a.com/path' }, /^TRUSTED_ORIGINS=.*no path/],
    [{ AUTH_SECRET: 'short' }, /AUTH_SECRET: setting "secret" must have at least 32 characters|AUTH_SECRET.*32/],
    [{ NODE_ENV: 'production' }, /^AUTH_SECRET: required in production/],
    [{ NODE_ENV: 'production', AUTH_SECRET: SECRET, ORIGIN_CHECK_DISABLED: 'true' }, /^ORIGIN_CHECK_DISABLED/],
    [
      { NODE_ENV: 'production', AUTH_SECRET: SECRET, DATABASE_URL: 'postgres://db/x' },
      /^PUBLIC_URL: required in production/,
    ],
    [{ NODE_ENV: 'production', AUTH_SECRET: SECRET, PUBLIC_URL: 'https://id.example.com' }, /^DATABASE_URL: required/],
    [{ PORT: '0' }, /^PUBLIC_URL: required when PORT is 0/],
    [{ PASSWORD_MIN_LENGTH: '200' }, /^PASSWORD_MIN_LENGTH/],
    [{ ARGON2_MEMORY_KIB: '1024' }, /ARGON2_MEMORY_KIB: setting "argon2.memoryKiB"/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL: setting "logLevel"/],
    [{ CONFIG_FILE: '/nonexistent/file.yaml' }, /^CONFIG_FILE: cannot read/],
  ])('refuses %j with a message naming the setting', (env, message) => {
    expect(() => loadConfig(env as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadConfig(env as Record<string, string>)).toThrow(message);
  });

  it('outside production, PUBLIC_URL defaults to the address the service listens on', () => {
    expect(loadConfig({ PORT: '3100' }).publicUrl).toBe('http://localhost:3100');
    expect(loadConfig({ PORT: '3100', HOST: '127.0.0.1' }).publicUrl).toBe('http://localhost:3100');
    expect(loadConfig({ PORT: '3100', HOST: '::' }).publicUrl).toBe('http://localhost:3100');
    expect(loadConfig({ PORT: '3100', HOST: '192.0.2.7' }).publicUrl).toBe('http://192.0.2.7:3100');
    expect(loadConfig({ PORT: '3100', HOST: 'fd00::7' }).publicUrl).toBe('http://[fd00::7]:3100');
    expect(loadConfig({ PORT: '3100', PUBLIC_URL: 'https://id.example.com' }).publicUrl).toBe('https://id.example.com');
    expect(loadConfig({}, { port: 3200 }).publicUrl).toBe('http://localhost:3200');
  });

  it('resolves the default data, outbox and console directories from the repository, not the working directory', () => {
    const root = resolve(__dirname, '../../../..');
    const c = loadConfig({});
    expect(c.dataDir).toBe(join(root, '.data'));
    expect(c.mail.outboxDir).toBe(join(root, '.data', 'outbox'));
    expect(c.consoleDir).toBe(join(root, 'console', 'dist'));
    // The outbox follows DATA_DIR unless it is set itself.
    expect(loadConfig({ DATA_DIR: '/tmp/identity' }).mail.outboxDir).toBe(join('/tmp/identity', 'outbox'));
    expect(loadConfig({ DATA_DIR: '/tmp/identity', MAIL_OUTBOX_DIR: '/tmp/mail' }).mail.outboxDir).toBe('/tmp/mail');
  });

  it('reads previous secrets from AUTH_SECRET_PREVIOUS (comma-separated, each at least 32 characters, never echoed)', () => {
    const [old1, old2] = ['o'.repeat(40), 'p'.repeat(48)];
    expect(loadConfig({ AUTH_SECRET: SECRET }).previousSecrets).toEqual([]);
    expect(loadConfig({ AUTH_SECRET: SECRET, AUTH_SECRET_PREVIOUS: ` ${old1}, ${old2},` }).previousSecrets).toEqual([
      old1,
      old2,
    ]);
    const short = 'leaked-but-short-secret';
    const load = () => loadConfig({ AUTH_SECRET: SECRET, AUTH_SECRET_PREVIOUS: `${old1},${short}` });
    expect(load).toThrow(/^AUTH_SECRET_PREVIOUS: setting "previousSecrets\.1" must not have fewer than 32 characters/);
    const message = (() => {
      try {
        load();
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toContain('AUTH_SECRET_PREVIOUS');
    expect(message).not.toContain(short);
  });

  it('names the file and the key for a bad value in the config file', () => {
    const file = join(tmpdir(), `identity-bad-${process.pid}.yaml`);
    writeFileSync(file, 'session:\n  expiresInSec: soon\n  unknownKey: 1\n');
    expect(() => loadConfig({ CONFIG_FILE: file })).toThrow(/CONFIG_FILE \(.*\): setting "session/);
  });

  it('documents every environment variable in the settings table (docs/configuration.md)', () => {
    const readme = readFileSync(resolve(__dirname, '../../../../docs/configuration.md'), 'utf8');
    for (const setting of ENV_SETTINGS)
      expect([setting.name, readme.includes(`\`${setting.name}\``)]).toEqual([setting.name, true]);
  });

  it('takes custom roles from the config file and refuses unknown resources, actions and role names', () => {
    const file = join(tmpdir(), `identity-roles-${process.pid}.yaml`);
    writeFileSync(file, 'organization:\n  roles:\n    billing:\n      organization: [update]\n');
    expect(loadConfig({ CONFIG_FILE: file }).organization.roles).toEqual({ billing: { organization: ['update'] } });
    expect(() => loadConfig({}, { organization: { roles: { x: { project: ['create'] } } } })).toThrow(
      'setting "organization.roles.x": unknown resource "project"',
    );
    expect(() => loadConfig({}, { admin: { roles: { support: { user: ['fly'] } } } })).toThrow(
      'setting "admin.roles.support.user": unknown action "fly"',
    );
    expect(() => loadConfig({}, { admin: { defaultRole: 'guest' } })).toThrow(
      'setting "admin.defaultRole" names the unknown role "guest"',
    );
    expect(loadConfig({ ADMIN_USER_IDS: 'a, b' }).admin.adminUserIds).toEqual(['a', 'b']);
  });

  it('hosted pages: off at /auth by default; their path, links, colours and providers are checked at start', () => {
    expect(loadConfig({}).hostedPages).toMatchObject({
      enabled: false,
      path: '/auth',
      productName: 'Identity',
      defaultLanguage: 'ENG',
      methods: { emailPassword: true, signUp: true, passkey: true },
    });
    const on = { HOSTED_PAGES_ENABLED: 'true' };
    expect(
      loadConfig({ ...on, HOSTED_PAGES_PATH: '/login/', HOSTED_PAGES_ACCENT_COLOR: '#0a7d3b' }).hostedPages,
    ).toMatchObject({ enabled: true, path: '/login', colors: { accent: '#0a7d3b' } });
    expect(() => loadConfig({ ...on, HOSTED_PAGES_PATH: '/api/auth/pages' })).toThrow(/HOSTED_PAGES_PATH: .*overlaps/);
    expect(() => loadConfig({ ...on, HOSTED_PAGES_PATH: '/console' })).toThrow(/HOSTED_PAGES_PATH/);
    // Disabled pages keep their default path out of the way of an API moved to /auth.
    expect(loadConfig({ AUTH_BASE_PATH: '/auth' }).basePath).toBe('/auth');
    expect(() => loadConfig({ HOSTED_PAGES_ACCENT_COLOR: 'red;}' })).toThrow(/hostedPages\.colors\.accent/);
    expect(() => loadConfig({ HOSTED_PAGES_DEFAULT_LANGUAGE: 'KLINGON' })).toThrow(/hostedPages\.defaultLanguage/);
    expect(() => loadConfig({ HOSTED_PAGES_SUPPORT_URL: 'javascript:alert(1)' })).toThrow(/HOSTED_PAGES_SUPPORT_URL/);
    expect(() => loadConfig({ HOSTED_PAGES_HOME_URL: 'javascript:alert(1)' })).toThrow(/HOSTED_PAGES_HOME_URL/);
    expect(loadConfig({ HOSTED_PAGES_HOME_URL: 'https://acme.example/' }).hostedPages.links.home).toBe(
      'https://acme.example/',
    );
    expect(() => loadConfig({ HOSTED_PAGES_LOGO_URL: '//evil.example/logo.png' })).toThrow(/HOSTED_PAGES_LOGO_URL/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://id.example.com',
        DATABASE_URL: 'postgres://db/identity',
        AUTH_SECRET: SECRET,
        HOSTED_PAGES_TERMS_URL: 'http://acme.example/terms',
      }),
    ).toThrow(/HOSTED_PAGES_TERMS_URL: expected an https URL/);
    expect(() => loadConfig({}, { hostedPages: { methods: { social: ['github'] } } })).toThrow(
      /"github", which is not a configured social provider/,
    );
  });

  it("hosted pages with a bot check: the widget's site key is required, its script URL must be http(s)", () => {
    const captcha = { CAPTCHA_PROVIDER: 'cloudflare-turnstile', CAPTCHA_SECRET_KEY: 'secret' };
    // Without the pages the site key stays optional (only hCaptcha's verify call uses it).
    expect(loadConfig(captcha).captcha.siteKey).toBeUndefined();
    expect(() => loadConfig({ ...captcha, HOSTED_PAGES_ENABLED: 'true' })).toThrow(/CAPTCHA_SITE_KEY: required/);
    const on = { ...captcha, HOSTED_PAGES_ENABLED: 'true', CAPTCHA_SITE_KEY: 'site' };
    expect(loadConfig(on).captcha.scriptUrl).toBeUndefined();
    expect(loadConfig({ ...on, CAPTCHA_SCRIPT_URL: 'http://127.0.0.1:9/api.js' }).captcha.scriptUrl).toBe(
      'http://127.0.0.1:9/api.js',
    );
    expect(() => loadConfig({ ...on, CAPTCHA_SCRIPT_URL: 'javascript:alert(1)' })).toThrow(
      /CAPTCHA_SCRIPT_URL: expected an https URL/,
    );
    expect(() => loadConfig({ ...on, CAPTCHA_SCRIPT_URL: 'https://u:p@cdn.example/api.js' })).toThrow(
      /CAPTCHA_SCRIPT_URL: a URL with credentials/,
    );
    expect(() =>
      loadConfig({
        ...on,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://id.example.com',
        DATABASE_URL: 'postgres://db/identity',
        AUTH_SECRET: SECRET,
        CAPTCHA_SCRIPT_URL: 'http://cdn.example/api.js',
      }),
    ).toThrow(/CAPTCHA_SCRIPT_URL: expected an https URL$/);
  });
});

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './index';

const SECRET = 's'.repeat(40);
const load = (providers: object, env: Record<string, string> = {}) =>
  loadConfig({ AUTH_SECRET: SECRET, ...env }, { social: { providers } as never });

describe('social provider settings', () => {
  it('defaults: no providers, 10-minute state, verified local email to link, 5 s refresh margin, 600 s id tokens', () => {
    expect(loadConfig({}).social).toEqual({
      stateTtlSec: 600,
      requireLocalEmailVerifiedForLinking: true,
      allowDifferentEmails: false,
      refreshWithinMs: 5000,
      requestTimeoutSec: 10,
      idTokenMaxAgeSec: 600,
      discoveryRetrySec: 30,
      providers: {},
    });
  });

  it('the id-token age limit and the discovery retry wait come from the environment too', () => {
    const c = loadConfig({ SOCIAL_ID_TOKEN_MAX_AGE_SEC: '120', SOCIAL_DISCOVERY_RETRY_SEC: '5' });
    expect(c.social).toMatchObject({ idTokenMaxAgeSec: 120, discoveryRetrySec: 5 });
    expect(() => loadConfig({ SOCIAL_ID_TOKEN_MAX_AGE_SEC: '0' })).toThrow(/idTokenMaxAgeSec/);
  });

  it('reads providers from CONFIG_FILE and their secrets from SOCIAL_<ID>_CLIENT_SECRET', () => {
    const file = join(tmpdir(), `social-${process.pid}.yaml`);
    writeFileSync(
      file,
      'social:\n  providers:\n    github:\n      clientId: gh-id\n    my-sso:\n      type: oidc\n      clientId: sso\n      discoveryUrl: https://sso.example.com\n',
    );
    const c = loadConfig({
      AUTH_SECRET: SECRET,
      CONFIG_FILE: file,
      SOCIAL_GITHUB_CLIENT_SECRET: 'gh-secret',
      SOCIAL_MY_SSO_CLIENT_SECRET: 'sso-secret',
    });
    expect(c.social.providers.github).toEqual({ clientId: 'gh-id', clientSecret: 'gh-secret' });
    expect(c.social.providers['my-sso'].clientSecret).toBe('sso-secret');
  });

  it.each([
    [{ github: { clientId: 'x' } }, {}, /SOCIAL_GITHUB_CLIENT_SECRET/],
    [{ corp: { clientId: 'x', clientSecret: 'y' } }, {}, /social\.providers\.corp\.type" is required/],
    [{ corp: { clientId: 'x', clientSecret: 'y', type: 'oidc' } }, {}, /discoveryUrl" is required/],
    [
      { corp: { clientId: 'x', clientSecret: 'y', type: 'oauth2', authorizationEndpoint: 'https://a.example' } },
      {},
      /tokenEndpoint" is required/,
    ],
    [
      { corp: { clientId: 'x', clientSecret: 'y', type: 'oidc', discoveryUrl: 'http://sso.example.com' } },
      {},
      /must be an https URL/,
    ],
    [
      { corp: { clientId: 'x', clientSecret: 'y', type: 'oidc', discoveryUrl: 'http://127.0.0.1:9' } },
      { NODE_ENV: 'production' },
      /must be an https URL/,
    ],
    [
      { github: { clientId: 'x', clientSecret: 'y', tokenEndpoint: 'https://u:p@github.example' } },
      {},
      /must be an https URL/,
    ],
    [{ 'Bad Id': { clientId: 'x', clientSecret: 'y' } }, {}, /social\.providers/],
  ])('refuses %j at start with a message naming the setting', (providers, env, message) => {
    expect(() => load(providers, env)).toThrow(ConfigError);
    expect(() => load(providers, env)).toThrow(message);
  });

  it('http is accepted on loopback outside production only', () => {
    const c = load({ corp: { clientId: 'x', clientSecret: 'y', type: 'oidc', discoveryUrl: 'http://127.0.0.1:9' } });
    expect(c.social.providers.corp.discoveryUrl).toBe('http://127.0.0.1:9');
  });
});

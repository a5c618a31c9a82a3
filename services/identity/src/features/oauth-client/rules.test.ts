import { ApiError } from '../../errors';
import { checkClient, httpsUriProblem, redirectUriProblem } from './rules';
import type { ClientSettings } from './types';

describe('redirectUriProblem', () => {
  it.each([
    ['https://app.example.com/cb', 'confidential'],
    ['https://app.example.com:8443/cb?tenant=a', 'confidential'],
    ['https://app.example.com/cb', 'public'],
    ['http://127.0.0.1/cb', 'public'],
    ['http://127.0.0.1:49152/cb', 'public'],
    ['http://[::1]:8080/cb', 'public'],
    ['http://localhost/cb', 'public'],
    ['com.example.app:/oauth2redirect', 'public'],
    ['com.example.app://cb', 'public'],
  ] as const)('admits %s for a %s client', (uri, type) => {
    expect(redirectUriProblem(uri, type)).toBeNull();
  });

  it.each([
    ['/cb', 'public', /absolute/],
    ['cb', 'public', /absolute/],
    ['https:/app.example.com', 'public', /absolute/],
    ['https://app.example.com/cb#frag', 'public', /fragment/],
    ['https://app.example.com/ cb', 'public', /white space/],
    ['https://app.example.com/\ncb', 'public', /white space/],
    ['https://user:pw@app.example.com/cb', 'public', /credentials/],
    ['http://app.example.com/cb', 'public', /loopback/],
    ['http://127.0.0.2/cb', 'public', /loopback/],
    ['http://localhost.example.com/cb', 'public', /loopback/],
    ['http://127.0.0.1/cb', 'confidential', /only public/],
    ['http://[::1]/cb', 'confidential', /only public/],
    ['com.example.app:/cb', 'confidential', /only public/],
    ['javascript:alert(1)', 'public', /private-use/],
    ['data:text/html,x', 'public', /private-use/],
    ['file:///etc/passwd', 'public', /private-use/],
    ['myapp:/cb', 'public', /private-use/],
  ] as const)('refuses %s for a %s client', (uri, type, problem) => {
    expect(redirectUriProblem(uri, type)).toMatch(problem);
  });
});

describe('httpsUriProblem', () => {
  it('takes absolute https URIs only', () => {
    expect(httpsUriProblem('https://cdn.example.com/logo.png')).toBeNull();
    expect(httpsUriProblem('http://cdn.example.com/logo.png')).toMatch(/https/);
    expect(httpsUriProblem('//cdn.example.com/logo.png')).toMatch(/https/);
    expect(httpsUriProblem('https://cdn.example.com/#x')).toMatch(/fragment/);
  });
});

const BASE: ClientSettings = {
  name: 'App',
  logoUri: null,
  description: null,
  type: 'confidential',
  redirectUris: ['https://app.example.com/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  requirePkce: true,
  accessTokenFormat: 'opaque',
  accessTokenTtlSec: null,
  refreshTokenTtlSec: null,
  idTokenTtlSec: null,
  firstParty: false,
  organizationId: null,
  backchannelLogoutUri: null,
  pairwiseSubject: false,
};
const SCOPES = ['openid', 'profile'];

function refusal(settings: Partial<ClientSettings>): { code: string; details: unknown } | null {
  try {
    checkClient({ ...BASE, ...settings }, SCOPES);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, details: error.details };
  }
}

describe('checkClient', () => {
  it('drops repeated entries, keeping the order given', () => {
    const checked = checkClient(
      {
        ...BASE,
        redirectUris: ['https://b/cb', 'https://a/cb', 'https://b/cb'],
        scopes: ['profile', 'openid', 'profile'],
      },
      SCOPES,
    );
    expect(checked.redirectUris).toEqual(['https://b/cb', 'https://a/cb']);
    expect(checked.scopes).toEqual(['profile', 'openid']);
  });

  it('names the field and entry at fault', () => {
    expect(refusal({ redirectUris: ['https://a/cb', 'http://a/cb'] })).toEqual({
      code: 'INVALID_REDIRECT_URI',
      details: [{ field: 'redirectUris/1', problem: expect.stringMatching(/loopback/) }],
    });
    expect(refusal({ scopes: ['openid', 'nope'] })).toMatchObject({
      code: 'UNKNOWN_SCOPE',
      details: [{ field: 'scopes/1' }],
    });
  });

  it('holds grant types, authentication and PKCE to the client type', () => {
    expect(refusal({ grantTypes: ['client_credentials'] })).toBeNull();
    expect(
      refusal({ grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'], redirectUris: [] }),
    ).toBeNull();
    expect(refusal({ type: 'public', tokenEndpointAuthMethod: 'none', grantTypes: ['client_credentials'] })?.code).toBe(
      'GRANT_TYPE_NOT_ALLOWED',
    );
    expect(refusal({ grantTypes: ['refresh_token'] })?.code).toBe('GRANT_TYPE_NOT_ALLOWED');
    expect(refusal({ redirectUris: [] })?.code).toBe('REDIRECT_URI_REQUIRED');
    expect(refusal({ tokenEndpointAuthMethod: 'none' })?.code).toBe('INVALID_TOKEN_ENDPOINT_AUTH_METHOD');
    expect(refusal({ type: 'public' })?.code).toBe('INVALID_TOKEN_ENDPOINT_AUTH_METHOD');
    expect(refusal({ type: 'public', tokenEndpointAuthMethod: 'none', requirePkce: false })?.code).toBe(
      'PUBLIC_CLIENT_REQUIRES_PKCE',
    );
    expect(refusal({ requirePkce: false })).toBeNull();
  });
});

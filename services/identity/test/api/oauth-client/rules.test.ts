import type { TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createClient, NATIVE_APP, oauthClientApp, SERVICE, WEB_APP, written } from './helpers';

/** Each registration rule (docs/oauth-clients.md "Rules") refuses with its catalogue error and writes nothing. */
const db = migratedScratchDatabase('oauth_clients_rules');
const start = oauthClientApp(db.url);
let t: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  t = await start();
  admin = await signUpAdmin(t);
});
afterAll(() => t?.close());

const GHOST_ORG = '00000000-0000-4000-8000-000000000000';
type Refusal = [what: string, body: object, status: number, code: string, field?: string];

const CREATE_REFUSALS: Refusal[] = [
  [
    'a relative redirect URI',
    { ...WEB_APP, redirectUris: ['/callback'] },
    400,
    'INVALID_REDIRECT_URI',
    'redirectUris/0',
  ],
  ['a scheme-relative URI', { ...WEB_APP, redirectUris: ['//orders.example.com/cb'] }, 400, 'INVALID_REDIRECT_URI'],
  ['https without a host', { ...WEB_APP, redirectUris: ['https:/orders.example.com/cb'] }, 400, 'INVALID_REDIRECT_URI'],
  [
    'a fragment',
    { ...WEB_APP, redirectUris: ['https://orders.example.com/ok', 'https://orders.example.com/cb#x'] },
    400,
    'INVALID_REDIRECT_URI',
    'redirectUris/1',
  ],
  ['an empty fragment', { ...WEB_APP, redirectUris: ['https://orders.example.com/cb#'] }, 400, 'INVALID_REDIRECT_URI'],
  ['white space', { ...WEB_APP, redirectUris: ['https://orders.example.com/c b'] }, 400, 'INVALID_REDIRECT_URI'],
  ['credentials', { ...WEB_APP, redirectUris: ['https://u:p@orders.example.com/cb'] }, 400, 'INVALID_REDIRECT_URI'],
  [
    'http to a public host',
    { ...WEB_APP, redirectUris: ['http://orders.example.com/cb'] },
    400,
    'INVALID_REDIRECT_URI',
  ],
  ['http loopback, confidential', { ...WEB_APP, redirectUris: ['http://127.0.0.1/cb'] }, 400, 'INVALID_REDIRECT_URI'],
  [
    'http to a look-alike of loopback',
    { ...NATIVE_APP, redirectUris: ['http://127.0.0.1.example.com/cb'] },
    400,
    'INVALID_REDIRECT_URI',
  ],
  [
    'http to localhost.',
    { ...NATIVE_APP, redirectUris: ['http://localhost.evil.com/cb'] },
    400,
    'INVALID_REDIRECT_URI',
  ],
  ['javascript:', { ...NATIVE_APP, redirectUris: ['javascript:alert(1)'] }, 400, 'INVALID_REDIRECT_URI'],
  ['data:', { ...NATIVE_APP, redirectUris: ['data:text/html,hi'] }, 400, 'INVALID_REDIRECT_URI'],
  ['a scheme without a dot', { ...NATIVE_APP, redirectUris: ['myapp:/callback'] }, 400, 'INVALID_REDIRECT_URI'],
  [
    'a private-use scheme, confidential',
    { ...WEB_APP, redirectUris: ['com.example.orders:/callback'] },
    400,
    'INVALID_REDIRECT_URI',
  ],
  [
    'a bad post-logout URI',
    { ...WEB_APP, postLogoutRedirectUris: ['http://orders.example.com/'] },
    400,
    'INVALID_REDIRECT_URI',
    'postLogoutRedirectUris/0',
  ],
  ['an http logo', { ...WEB_APP, logoUri: 'http://cdn.example.com/l.png' }, 400, 'INVALID_LOGO_URI', 'logoUri'],
  [
    'a back-channel logout URI with a fragment',
    { ...WEB_APP, backchannelLogoutUri: 'https://orders.example.com/logout#x' },
    400,
    'INVALID_BACKCHANNEL_LOGOUT_URI',
    'backchannelLogoutUri',
  ],
  [
    'client_credentials, public',
    { ...NATIVE_APP, grantTypes: ['authorization_code', 'client_credentials'] },
    400,
    'GRANT_TYPE_NOT_ALLOWED',
    'grantTypes/1',
  ],
  [
    'refresh_token alone',
    { ...SERVICE, grantTypes: ['client_credentials', 'refresh_token'] },
    400,
    'GRANT_TYPE_NOT_ALLOWED',
  ],
  [
    'authorization_code without a redirect URI',
    { ...WEB_APP, redirectUris: [] },
    400,
    'REDIRECT_URI_REQUIRED',
    'redirectUris',
  ],
  ['an unknown grant type', { ...WEB_APP, grantTypes: ['password'] }, 400, 'VALIDATION_ERROR'],
  ['no grant type', { ...WEB_APP, grantTypes: [] }, 400, 'VALIDATION_ERROR'],
  ['an unknown scope', { ...WEB_APP, scopes: ['openid', 'admin'] }, 400, 'UNKNOWN_SCOPE', 'scopes/1'],
  ['no scope', { ...WEB_APP, scopes: [] }, 400, 'VALIDATION_ERROR'],
  [
    'a public client with a secret method',
    { ...NATIVE_APP, tokenEndpointAuthMethod: 'client_secret_basic' },
    400,
    'INVALID_TOKEN_ENDPOINT_AUTH_METHOD',
  ],
  [
    'a confidential client without one',
    { ...WEB_APP, tokenEndpointAuthMethod: 'none' },
    400,
    'INVALID_TOKEN_ENDPOINT_AUTH_METHOD',
  ],
  ['a public client without PKCE', { ...NATIVE_APP, requirePkce: false }, 400, 'PUBLIC_CLIENT_REQUIRES_PKCE'],
  ['an unknown organization', { ...SERVICE, organizationId: GHOST_ORG }, 404, 'ORGANIZATION_NOT_FOUND'],
  ['an organization id that is no id', { ...SERVICE, organizationId: 'acme' }, 404, 'ORGANIZATION_NOT_FOUND'],
  ['a type that does not exist', { ...WEB_APP, type: 'trusted' }, 400, 'VALIDATION_ERROR'],
  ['a secret of its own', { ...WEB_APP, secret: 'mine' }, 400, 'FIELD_NOT_ALLOWED'],
  ['a client id of its own', { ...WEB_APP, clientId: 'mine' }, 400, 'FIELD_NOT_ALLOWED'],
  ['a token lifetime under a minute', { ...WEB_APP, accessTokenTtlSec: 5 }, 400, 'VALIDATION_ERROR'],
  ['no name', { ...WEB_APP, name: '' }, 400, 'VALIDATION_ERROR'],
];

describe('create refusals', () => {
  // Every row of the same length (a shorter one would be handed jest's `done` as its last argument).
  const rows = CREATE_REFUSALS.map(
    ([what, body, status, code, field]) => [what, body, status, code, field ?? null] as const,
  );
  it.each(rows)('%s → %i %s', async (_what, body, status, code, field) => {
    const before = await written(t);
    const res = await adminPost(t, 'create-oauth-client', body, admin.jar);
    expectError(res, status, code);
    if (field) expect(res.json().details).toEqual([{ field, problem: expect.any(String) }]);
    expect(await written(t)).toEqual(before);
  });
});

describe('what the rules admit', () => {
  it.each([
    ['https', 'confidential', 'https://orders.example.com/cb?x=1'],
    ['http on 127.0.0.1 with a port', 'public', 'http://127.0.0.1:51004/cb'],
    ['http on [::1]', 'public', 'http://[::1]/cb'],
    ['http on localhost', 'public', 'http://localhost:8080/cb'],
    ['a private-use scheme', 'public', 'com.example.app:/oauth2redirect'],
    ['a private-use scheme with two slashes', 'public', 'com.example.app://callback'],
  ])('%s for a %s client, stored exactly as given', async (_what, type, uri) => {
    const base = type === 'public' ? NATIVE_APP : WEB_APP;
    const { client } = await createClient(t, admin.jar, { ...base, redirectUris: [uri, uri] });
    expect(client.redirectUris).toEqual([uri]);
  });
});

describe('update refusals: the client a change would make is checked as a whole', () => {
  it.each([
    ['a bad redirect URI', { redirectUris: ['http://orders.example.com/'] }, 'INVALID_REDIRECT_URI'],
    ['removing every redirect URI of a code client', { redirectUris: [] }, 'REDIRECT_URI_REQUIRED'],
    ['refresh tokens without the grants that issue them', { grantTypes: ['refresh_token'] }, 'GRANT_TYPE_NOT_ALLOWED'],
    ['an unknown scope', { scopes: ['openid', 'orders:delete'] }, 'UNKNOWN_SCOPE'],
    ['no secret method', { tokenEndpointAuthMethod: 'none' }, 'INVALID_TOKEN_ENDPOINT_AUTH_METHOD'],
  ])('confidential: %s → %s, nothing written', async (_what, changes, code) => {
    const { clientId } = await createClient(t, admin.jar, WEB_APP);
    const before = await written(t);
    expectError(
      await adminPost(t, 'update-oauth-client', { clientId, name: 'Changed too', ...changes }, admin.jar),
      400,
      code,
    );
    expect(await written(t)).toEqual(before);
  });

  it.each([
    ['client_credentials', { grantTypes: ['authorization_code', 'client_credentials'] }, 'GRANT_TYPE_NOT_ALLOWED'],
    ['turning PKCE off', { requirePkce: false }, 'PUBLIC_CLIENT_REQUIRES_PKCE'],
    ['a secret method', { tokenEndpointAuthMethod: 'client_secret_post' }, 'INVALID_TOKEN_ENDPOINT_AUTH_METHOD'],
  ])('public: %s → %s, nothing written', async (_what, changes, code) => {
    const { clientId } = await createClient(t, admin.jar, NATIVE_APP);
    const before = await written(t);
    expectError(await adminPost(t, 'update-oauth-client', { clientId, ...changes }, admin.jar), 400, code);
    expect(await written(t)).toEqual(before);
  });

  it('an unknown organization or client: 404, nothing written', async () => {
    const { clientId } = await createClient(t, admin.jar, SERVICE);
    const before = await written(t);
    expectError(
      await adminPost(t, 'update-oauth-client', { clientId, organizationId: GHOST_ORG }, admin.jar),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(
      await adminPost(t, 'update-oauth-client', { clientId: 'A'.repeat(24), name: 'x' }, admin.jar),
      404,
      'OAUTH_CLIENT_NOT_FOUND',
    );
    expectError(
      await adminPost(t, 'rotate-oauth-client-secret', { clientId: 'A'.repeat(24) }, admin.jar),
      404,
      'OAUTH_CLIENT_NOT_FOUND',
    );
    expect(await written(t)).toEqual(before);
  });

  it('a public client has no secret to rotate', async () => {
    const { clientId } = await createClient(t, admin.jar, NATIVE_APP);
    const before = await written(t);
    expectError(
      await adminPost(t, 'rotate-oauth-client-secret', { clientId }, admin.jar),
      400,
      'OAUTH_CLIENT_HAS_NO_SECRET',
    );
    expect(await written(t)).toEqual(before);
  });
});

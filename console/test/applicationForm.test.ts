import { describe, expect, it } from 'vitest';
import {
  type ApplicationValues,
  applicationChanges,
  applicationsQuery,
  applicationValues,
  createBody,
  NEW_APPLICATION,
  type OAuthClient,
  refusedPath,
  sentUris,
} from '../src/applications/applicationForm';
import { canAccessWithRole } from '../src/providers/access';
import { makeDataProvider } from '../src/providers/dataProvider';
import { fakeApi } from './fakeFetch';

const aClient = (over: Partial<OAuthClient> = {}): OAuthClient => ({
  clientId: 'c0ffee0c0ffee0c0ffee0c0f',
  name: 'Orders portal',
  logoUri: null,
  description: 'Staff portal',
  type: 'confidential',
  redirectUris: ['https://orders.example.com/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile'],
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
  previousSecretExpiresAt: null,
  createdBy: 'u1',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

const values = (over: Partial<ApplicationValues> = {}): ApplicationValues => ({ ...NEW_APPLICATION, ...over });

describe('application form', () => {
  it('URI rows as sent: trimmed, empty rows and repeats dropped, each with its row in the form', () => {
    expect(
      sentUris([{ uri: ' https://a/cb ' }, { uri: '' }, { uri: 'https://b/cb' }, { uri: 'https://a/cb' }]),
    ).toEqual([
      { uri: 'https://a/cb', row: 0 },
      { uri: 'https://b/cb', row: 2 },
    ]);
    expect(sentUris(undefined)).toEqual([]);
  });

  it('create: texts trimmed, empty optional fields left out, lifetimes as numbers', () => {
    const body = createBody(
      values({
        name: ' Portal ',
        description: '  ',
        redirectUris: [{ uri: 'https://a/cb' }, { uri: '' }],
        accessTokenTtlSec: 600,
        logoUri: ' https://cdn/l.png ',
        organizationId: 'o1',
      }),
    );
    expect(body).toEqual({
      name: 'Portal',
      type: 'confidential',
      redirectUris: ['https://a/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      requirePkce: true,
      accessTokenFormat: 'opaque',
      firstParty: false,
      pairwiseSubject: false,
      logoUri: 'https://cdn/l.png',
      accessTokenTtlSec: 600,
      organizationId: 'o1',
    });
  });

  it('a public application is sent with no authentication and PKCE on, whatever the hidden fields hold', () => {
    const body = createBody(
      values({ type: 'public', tokenEndpointAuthMethod: 'client_secret_post', requirePkce: false }),
    );
    expect(body).toMatchObject({ type: 'public', tokenEndpointAuthMethod: 'none', requirePkce: true });
  });

  it('edit opens with the stored values and sends only what changed; emptied optional fields are null', () => {
    const client = aClient({ logoUri: 'https://cdn/l.png', accessTokenTtlSec: 300 });
    const opened = applicationValues(client);
    expect(opened.redirectUris).toEqual([{ uri: 'https://orders.example.com/cb' }]);
    expect(applicationChanges(opened, client)).toEqual({});
    expect(
      applicationChanges(
        {
          ...opened,
          description: '',
          logoUri: ' ',
          accessTokenTtlSec: null,
          redirectUris: [...opened.redirectUris, { uri: 'https://orders.example.com/cb2' }],
          firstParty: true,
        },
        client,
      ),
    ).toEqual({
      description: null,
      logoUri: null,
      accessTokenTtlSec: null,
      redirectUris: ['https://orders.example.com/cb', 'https://orders.example.com/cb2'],
      firstParty: true,
    });
  });

  it('a refusal of the n-th sent URI is about its row; other lists are one field; unknown fields none', () => {
    const v = values({ redirectUris: [{ uri: '' }, { uri: 'https://a/cb' }, { uri: 'http://b/cb' }] });
    expect(refusedPath('redirectUris/1', v)).toBe('redirectUris.2.uri');
    expect(refusedPath('body.redirectUris.0', v)).toBe('redirectUris.1.uri');
    expect(refusedPath('redirectUris', v)).toBe('redirectUris');
    expect(refusedPath('grantTypes/0', v)).toBe('grantTypes');
    expect(refusedPath('logoUri', v)).toBe('logoUri');
    expect(refusedPath('secret', v)).toBeUndefined();
    expect(refusedPath(undefined, v)).toBeUndefined();
  });

  it('list filters: part of the name, the type, the organization, and the page', () => {
    expect(applicationsQuery({ q: ' portal ', type: 'public', organizationId: 'o1' }, 3, 10)).toEqual({
      limit: 10,
      offset: 20,
      name: 'portal',
      type: 'public',
      organizationId: 'o1',
    });
    expect(applicationsQuery({ q: '', type: 'other' })).toEqual({ limit: 25, offset: 0 });
  });
});

describe('dataProvider applications', () => {
  it('getList and getOne read list-oauth-clients and get-oauth-client, the client id as the record id', async () => {
    const api = fakeApi({
      'GET /admin/list-oauth-clients': { body: { clients: [aClient()], total: 1, limit: 25, offset: 0 } },
      'GET /admin/get-oauth-client': { body: { client: aClient() } },
    });
    const dp = makeDataProvider(api.client);
    const list = await dp.getList('applications', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: 'Orders' },
    });
    expect(api.last().query).toEqual({ limit: '25', offset: '25', name: 'Orders' });
    expect(list).toEqual({ data: [{ ...aClient(), id: aClient().clientId }], total: 1 });
    const one = await dp.getOne('applications', { id: aClient().clientId });
    expect(api.last()).toMatchObject({ path: '/admin/get-oauth-client', query: { clientId: aClient().clientId } });
    expect(one.data.id).toBe(aClient().clientId);
  });

  it('the named methods call create, update, rotate, delete and list-oauth-scopes', async () => {
    const api = fakeApi({
      'POST /admin/create-oauth-client': { body: { client: aClient(), secret: 's3cret' } },
      'POST /admin/update-oauth-client': { body: { client: aClient({ name: 'New' }) } },
      'POST /admin/rotate-oauth-client-secret': { body: { client: aClient(), secret: 'n3w' } },
      'POST /admin/delete-oauth-client': { body: { success: true } },
      'GET /admin/list-oauth-scopes': { body: { scopes: ['openid'] } },
    });
    const dp = makeDataProvider(api.client);
    expect((await dp.createApplication(createBody(values({ name: 'X' })))).secret).toBe('s3cret');
    expect((await dp.updateApplication('c1', { name: 'New' })).name).toBe('New');
    expect(api.last().body).toEqual({ clientId: 'c1', name: 'New' });
    expect((await dp.rotateApplicationSecret('c1')).secret).toBe('n3w');
    expect(api.last().body).toEqual({ clientId: 'c1' });
    await dp.deleteApplication('c1');
    expect(api.last()).toMatchObject({ path: '/admin/delete-oauth-client', body: { clientId: 'c1' } });
    expect(await dp.listOAuthScopes()).toEqual(['openid']);
  });
});

describe('access', () => {
  it('the admin role may do everything on applications; a plain user nothing', () => {
    for (const action of ['list', 'show', 'create', 'edit', 'delete']) {
      expect(canAccessWithRole('admin', 'applications', action)).toBe(true);
      expect(canAccessWithRole('user', 'applications', action)).toBe(false);
    }
  });
});

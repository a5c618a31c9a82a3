import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './index';

const dir = mkdtempSync(join(tmpdir(), 'oidc-clients-'));
const SECRET = 'c'.repeat(40);
const ON = { AUTH_SECRET: 's'.repeat(40), OIDC_PROVIDER_ENABLED: 'true', HOSTED_PAGES_ENABLED: 'true' };
/** A client's settings; a field given as undefined is left out. */
const client = (extra: object = {}) =>
  Object.fromEntries(
    Object.entries({
      client_id: 'app',
      client_secret: SECRET,
      redirect_uris: ['https://app.example.com/cb'],
      grant_types: ['authorization_code'],
      ...extra,
    }).filter(([, value]) => value !== undefined),
  );
const withClients = (clients: object[], env: Record<string, string> = {}) =>
  loadConfig({ ...ON, ...env }, { oidcProvider: { clients: clients as never } });

describe('OpenID provider settings', () => {
  it('off by default; the issuer is PUBLIC_URL + the base path; lifetimes have defaults', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://id.example.com' }).oidcProvider;
    expect(c).toMatchObject({
      enabled: false,
      issuer: 'https://id.example.com/api/auth',
      clients: [],
      accessTokenTtlSec: 900,
      authorizationCodeTtlSec: 60,
      refreshTokenTtlSec: 2_592_000,
    });
  });

  it('OIDC_ISSUER: on PUBLIC_URL’s origin only, no query or fragment', () => {
    const env = { PUBLIC_URL: 'https://id.example.com' };
    expect(loadConfig({ ...env, OIDC_ISSUER: 'https://id.example.com/' }).oidcProvider.issuer).toBe(
      'https://id.example.com',
    );
    expect(() => loadConfig({ ...env, OIDC_ISSUER: 'https://other.example.com' })).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig({ ...env, OIDC_ISSUER: 'https://id.example.com/x?y=1' })).toThrow(/OIDC_ISSUER/);
  });

  it('needs the hosted pages, where users sign in', () => {
    expect(() => loadConfig({ ...ON, HOSTED_PAGES_ENABLED: 'false' })).toThrow(/HOSTED_PAGES_ENABLED/);
  });

  it('reads the clients of OIDC_CLIENTS_FILE (YAML or JSON) beside the configured ones, with defaults', () => {
    const yaml = join(dir, 'clients.yaml');
    writeFileSync(
      yaml,
      `clients:\n  - client_id: web\n    client_secret: ${SECRET}\n    redirect_uris: [https://web.example.com/cb]\n    grant_types: [authorization_code, refresh_token]\n    first_party: true\n`,
    );
    const json = join(dir, 'clients.json');
    writeFileSync(json, JSON.stringify({ clients: [client({ client_id: 'spa', client_secret: undefined })] }));
    const fromYaml = withClients([client()], { OIDC_CLIENTS_FILE: yaml }).oidcProvider.clients;
    expect(fromYaml.map((c) => c.client_id)).toEqual(['app', 'web']);
    expect(fromYaml[1]).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid email profile offline_access',
      first_party: true,
    });
    const fromJson = withClients([], { OIDC_CLIENTS_FILE: json }).oidcProvider.clients;
    expect(fromJson[0]).toMatchObject({ client_id: 'spa', token_endpoint_auth_method: 'none', first_party: false });
  });

  it('refuses a file without clients, or with a client the schema refuses, naming it', () => {
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, 'nothing: here\n');
    expect(() => withClients([], { OIDC_CLIENTS_FILE: empty })).toThrow(/OIDC_CLIENTS_FILE: .* has no "clients"/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clients: [client({ grant_types: ['implicit'] })] }));
    expect(() => withClients([], { OIDC_CLIENTS_FILE: bad })).toThrow(/OIDC_CLIENTS_FILE: clients\[0\]\.grant_types/);
    expect(() => withClients([], { OIDC_CLIENTS_FILE: join(dir, 'missing.yaml') })).toThrow(/cannot read/);
  });

  it.each([
    ['a duplicate id', [client(), client()], /used twice/],
    [
      'a confidential client without a secret',
      [client({ client_secret: undefined, token_endpoint_auth_method: 'client_secret_post' })],
      /needs a client_secret/,
    ],
    ['a public client with a secret', [client({ token_endpoint_auth_method: 'none' })], /has no client_secret/],
    [
      'client credentials for a public client',
      [client({ client_secret: undefined, grant_types: ['client_credentials'] })],
      /confidential/,
    ],
    ['a short secret', [client({ client_secret: 'short' })], /client_secret/],
    [
      'refresh tokens without codes',
      [client({ grant_types: ['refresh_token', 'client_credentials'] })],
      /refresh_token/,
    ],
    ['codes without a redirect URI', [client({ redirect_uris: [] })], /redirect_uris/],
    ['a redirect URI with a fragment', [client({ redirect_uris: ['https://app.example.com/cb#x'] })], /fragment/],
    ['a relative redirect URI', [client({ redirect_uris: ['/cb'] })], /absolute/],
  ])('refuses %s', (_what, clients, message) => {
    expect(() => withClients(clients)).toThrow(message);
  });

  it('http redirect URIs: on a loopback host always, elsewhere only outside production', () => {
    const prod = { NODE_ENV: 'production', PUBLIC_URL: 'https://id.example.com', DATABASE_URL: 'postgres://x/y' };
    expect(() => withClients([client({ redirect_uris: ['http://127.0.0.1:8080/cb'] })], prod)).not.toThrow();
    expect(() => withClients([client({ redirect_uris: ['http://app.example.com/cb'] })], prod)).toThrow(/https/);
    expect(() => withClients([client({ redirect_uris: ['http://app.example.com/cb'] })])).not.toThrow();
  });
});

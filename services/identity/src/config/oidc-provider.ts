import { readFileSync } from 'node:fs';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { type Config, type OidcClientConfig, OidcClientSchema } from './schema';

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * The OpenID provider's settings beyond their schema (docs/oidc-provider.md): the issuer (PUBLIC_URL + base path
 * unless set, always on PUBLIC_URL's origin, where the service's sessions and sign-in pages are), the clients of
 * OIDC_CLIENTS_FILE added to the configured ones, and each client's rules: a confidential client has a secret and
 * a public one none, redirect URIs are absolute https URLs (http on a loopback host, or anywhere outside
 * production) without a fragment, and the scopes default by grant type.
 */
export function finishOidcProvider(config: Config, bad: (why: string) => Error): void {
  const op = config.oidcProvider;
  op.issuer = issuerOf(config, bad);
  if (!op.enabled) return;
  if (!config.hostedPages.enabled)
    throw bad('OIDC_PROVIDER_ENABLED: the provider signs users in on the hosted pages; set HOSTED_PAGES_ENABLED=true');
  if (op.clientsFile) op.clients = [...op.clients, ...readClientsFile(op.clientsFile, bad)];
  const production = config.env === 'production';
  const seen = new Set<string>();
  for (const client of op.clients) {
    const name = `oidc client "${client.client_id}"`;
    if (seen.has(client.client_id)) throw bad(`${name}: the client id is used twice`);
    seen.add(client.client_id);
    finishClient(client, production, (why) => bad(`${name}: ${why}`));
  }
}

function issuerOf(config: Config, bad: (why: string) => Error): string {
  const raw = config.oidcProvider.issuer ?? `${config.publicUrl}${config.basePath}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('OIDC_ISSUER: expected a URL');
  }
  if (url.origin !== config.publicUrl)
    throw bad(`OIDC_ISSUER: must be on PUBLIC_URL's origin (${config.publicUrl}), where the sign-in happens`);
  if (url.search || url.hash || raw.endsWith('?') || raw.endsWith('#'))
    throw bad('OIDC_ISSUER: an issuer has no query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

function readClientsFile(path: string, bad: (why: string) => Error): OidcClientConfig[] {
  let data: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw bad(`OIDC_CLIENTS_FILE: cannot read ${path}: ${(e as Error).message}`);
  }
  const clients = (data as { clients?: unknown } | null)?.clients;
  if (!Array.isArray(clients)) throw bad(`OIDC_CLIENTS_FILE: ${path} has no "clients" list`);
  return clients.map((client, i) => {
    const error = [...Value.Errors(OidcClientSchema, client)][0];
    if (error) {
      const at = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(client)';
      throw bad(`OIDC_CLIENTS_FILE: clients[${i}].${at} ${error.message}`);
    }
    return client as OidcClientConfig;
  });
}

function finishClient(client: OidcClientConfig, production: boolean, bad: (why: string) => Error): void {
  const method = client.token_endpoint_auth_method ?? (client.client_secret ? 'client_secret_basic' : 'none');
  client.token_endpoint_auth_method = method;
  const grants = new Set(client.grant_types);
  if (method === 'none') {
    if (client.client_secret) throw bad('a public client (token_endpoint_auth_method none) has no client_secret');
    if (grants.has('client_credentials')) throw bad('client_credentials needs a confidential client');
  } else if (!client.client_secret) throw bad(`${method} needs a client_secret`);
  if (grants.has('refresh_token') && !grants.has('authorization_code'))
    throw bad('refresh_token comes with authorization_code');
  const redirects = client.redirect_uris ?? [];
  client.redirect_uris = redirects;
  if (grants.has('authorization_code') && redirects.length === 0)
    throw bad('authorization_code needs at least one redirect_uris entry');
  for (const uri of [...redirects, ...(client.post_logout_redirect_uris ?? [])]) checkRedirect(uri, production, bad);
  if (client.logo_uri !== undefined) checkLogo(client.logo_uri, production, bad);
  if (client.scope === undefined) {
    const scopes = grants.has('authorization_code') ? ['openid', 'email', 'profile'] : [];
    if (grants.has('refresh_token')) scopes.push('offline_access');
    if (scopes.length) client.scope = scopes.join(' ');
  }
  client.first_party = client.first_party ?? false;
}

function checkRedirect(uri: string, production: boolean, bad: (why: string) => Error): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw bad(`redirect URI "${uri}" is not an absolute URL`);
  }
  if (url.hash || uri.includes('#')) throw bad(`redirect URI "${uri}" has a fragment`);
  if (url.username || url.password) throw bad(`redirect URI "${uri}" has credentials`);
  const loopback = LOOPBACK.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !production)))
    throw bad(
      `redirect URI "${uri}" must be https (http only on a loopback host${production ? '' : ' or outside production'})`,
    );
}

function checkLogo(uri: string, production: boolean, bad: (why: string) => Error): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw bad(`logo_uri "${uri}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production))
    throw bad(`logo_uri "${uri}" must be https`);
}

import type { Clock } from '../../shared/clock';
import type { OAuthClientRepository } from './repository';
import type { ClientType } from './schemas';
import { hashClientSecret, isClientId, secretMatches } from './secret';
import type { ClientRow } from './types';

/**
 * A registered client as the OpenID Provider reads it: OpenID Connect Dynamic Client Registration's metadata names
 * (and RFC 7591's), then the service's own fields. Never a secret or its hash: `verifySecret` checks one.
 */
export interface ClientMetadata {
  client_id: string;
  client_name: string;
  logo_uri?: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: string[];
  /** `code` when the client may use the authorization code grant, else none. */
  response_types: string[];
  /** `none` for a public client; `client_secret_basic` or `client_secret_post` for a confidential one. */
  token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post';
  /** The scopes the client may ask for, space-separated. */
  scope: string;
  /** `native` when a redirect URI is a private-use scheme or an http loopback address (RFC 8252), else `web`. */
  application_type: 'web' | 'native';
  subject_type: 'public' | 'pairwise';
  backchannel_logout_uri?: string;
  /** The service's own fields. */
  client_type: ClientType;
  client_description: string | null;
  first_party: boolean;
  require_pkce: boolean;
  access_token_format: 'jwt' | 'opaque';
  access_token_lifetime_sec: number | null;
  refresh_token_lifetime_sec: number | null;
  id_token_lifetime_sec: number | null;
  organization_id: string | null;
}

/** What the provider reads clients through: the registry (this feature), or any other source of clients. */
export interface OAuthClientSource {
  /** The client's metadata, or undefined for an unknown id. */
  find(clientId: string): Promise<ClientMetadata | undefined>;
  /**
   * Whether `presented` is the client's secret: its current one, or the one before the last rotation until that
   * one's grace period ends. False for an unknown or public client. Compared in constant time.
   */
  verifySecret(clientId: string, presented: string): Promise<boolean>;
}

/** Hashed when the client is unknown, so an unknown id costs the same hashing as a known one. */
const NO_HASH = hashClientSecret('no client has this secret');

/** The registered clients (oauth_clients), read for the provider. */
export class ClientRegistry implements OAuthClientSource {
  constructor(
    private readonly repo: OAuthClientRepository,
    private readonly clock: Clock,
  ) {}

  async find(clientId: string): Promise<ClientMetadata | undefined> {
    if (!isClientId(clientId)) return undefined;
    const row = await this.repo.get(clientId);
    return row ? clientMetadata(row) : undefined;
  }

  async verifySecret(clientId: string, presented: string): Promise<boolean> {
    if (typeof presented !== 'string') return false;
    const stored = isClientId(clientId) ? await this.repo.secrets(clientId) : null;
    if (!stored?.secretHash) {
      secretMatches(NO_HASH, presented);
      return false;
    }
    // Both are compared whatever the first answers, so the time taken does not say which secret matched.
    const current = secretMatches(stored.secretHash, presented);
    const previousValid =
      stored.previousSecretExpiresAt !== null && stored.previousSecretExpiresAt.getTime() > this.clock.now();
    const previous = secretMatches(stored.previousSecretHash ?? NO_HASH, presented) && previousValid;
    return current || previous;
  }
}

/** A private-use scheme or an http loopback address: a native app's redirect (rules.ts admits them for public clients). */
const isNativeRedirect = (uri: string) => !/^https:/i.test(uri);

export function clientMetadata(row: ClientRow): ClientMetadata {
  return {
    client_id: row.clientId,
    client_name: row.name,
    ...(row.logoUri ? { logo_uri: row.logoUri } : {}),
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.grantTypes,
    response_types: row.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: row.tokenEndpointAuthMethod,
    scope: row.scopes.join(' '),
    application_type: row.redirectUris.some(isNativeRedirect) ? 'native' : 'web',
    subject_type: row.pairwiseSubject ? 'pairwise' : 'public',
    ...(row.backchannelLogoutUri ? { backchannel_logout_uri: row.backchannelLogoutUri } : {}),
    client_type: row.type,
    client_description: row.description,
    first_party: row.firstParty,
    require_pkce: row.requirePkce,
    access_token_format: row.accessTokenFormat,
    access_token_lifetime_sec: row.accessTokenTtlSec,
    refresh_token_lifetime_sec: row.refreshTokenTtlSec,
    id_token_lifetime_sec: row.idTokenTtlSec,
    organization_id: row.organizationId,
  };
}

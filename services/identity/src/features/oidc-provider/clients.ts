import type { OidcClientConfig } from '../../config';
import { safeEqual } from '../../crypto/safe-equal';

/** A grant type a client may use in this increment (docs/oidc-provider.md). */
export type OAuthGrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

/** How a client authenticates at the token endpoint: a secret (HTTP Basic or the form), or not at all (public). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/**
 * A relying party as the provider needs it, whatever holds it (the static configuration today, an admin-managed
 * registry later). Never its secret: a source checks a secret itself (`verifySecret`), so one that keeps only a
 * hash fits as well.
 */
export interface OAuthClient {
  clientId: string;
  name: string | null;
  logoUri: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: OAuthGrantType[];
  /** The scopes it may ask for. */
  scopes: string[];
  authMethod: ClientAuthMethod;
  /** The service's own product: its users are asked no consent. */
  firstParty: boolean;
}

/**
 * Where the provider reads its clients: the one interface between the provider and whatever holds them. A source
 * answers a client by id (undefined: unknown, or disabled) and checks a client's secret.
 */
export interface ClientSource {
  find(clientId: string): Promise<OAuthClient | undefined>;
  /** Whether `secret` is the confidential client's secret (false for an unknown or public client). */
  verifySecret(clientId: string, secret: string): Promise<boolean>;
  /** Every scope some client may ask for, for the provider's discovery document (`scopes_supported`). */
  scopes(): Promise<string[]>;
}

/** The clients of the configuration (`oidcProvider.clients` and OIDC_CLIENTS_FILE), checked at load. */
export class StaticClientSource implements ClientSource {
  private readonly clients: Map<string, { client: OAuthClient; secret: string | null }>;

  constructor(configured: OidcClientConfig[]) {
    this.clients = new Map(
      configured.map((c) => [c.client_id, { client: toClient(c), secret: c.client_secret ?? null }]),
    );
  }

  async find(clientId: string): Promise<OAuthClient | undefined> {
    return this.clients.get(clientId)?.client;
  }

  async verifySecret(clientId: string, secret: string): Promise<boolean> {
    const known = this.clients.get(clientId)?.secret;
    return typeof known === 'string' && safeEqual(known, secret);
  }

  async scopes(): Promise<string[]> {
    return [...new Set([...this.clients.values()].flatMap(({ client }) => client.scopes))];
  }
}

/**
 * A client of the operators' registry (the oauth-client feature) as it answers it: OAuth 2.0 dynamic client
 * registration's names (RFC 7591) and the service's `first_party`. Its other settings (per-client lifetimes, JWT
 * access tokens, pairwise subjects, back-channel logout) are not applied by the provider yet (docs/oidc-provider.md).
 */
export interface RegisteredClient {
  client_id: string;
  client_name: string;
  logo_uri?: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  scope: string;
  first_party: boolean;
}

/** What the provider needs of the registry: a client by id, and the check of a presented secret. */
export interface ClientRegistry {
  find(clientId: string): Promise<RegisteredClient | undefined>;
  verifySecret(clientId: string, presented: string): Promise<boolean>;
}

const GRANT_TYPES: readonly string[] = ['authorization_code', 'refresh_token', 'client_credentials'];

/**
 * The registered clients, read on every request that names one (no cache: a deletion, a change or a rotation
 * applies to the next request). `scopes` is every scope a registration may name.
 */
export class RegisteredClientSource implements ClientSource {
  constructor(
    private readonly registry: ClientRegistry,
    private readonly knownScopes: string[],
  ) {}

  async find(clientId: string): Promise<OAuthClient | undefined> {
    const registered = await this.registry.find(clientId);
    return registered && fromRegistration(registered);
  }

  verifySecret(clientId: string, secret: string): Promise<boolean> {
    return this.registry.verifySecret(clientId, secret);
  }

  async scopes(): Promise<string[]> {
    return this.knownScopes;
  }
}

/**
 * The configuration's clients, then the registry's: an id the configuration names is never looked up in the
 * registry (its secret is the configuration's).
 */
export class ClientSources implements ClientSource {
  constructor(
    private readonly configured: ClientSource,
    private readonly registered: ClientSource,
  ) {}

  async find(clientId: string): Promise<OAuthClient | undefined> {
    return (await this.configured.find(clientId)) ?? this.registered.find(clientId);
  }

  async verifySecret(clientId: string, secret: string): Promise<boolean> {
    const source = (await this.configured.find(clientId)) ? this.configured : this.registered;
    return source.verifySecret(clientId, secret);
  }

  async scopes(): Promise<string[]> {
    return [...new Set([...(await this.configured.scopes()), ...(await this.registered.scopes())])];
  }
}

function fromRegistration(c: RegisteredClient): OAuthClient {
  return {
    clientId: c.client_id,
    name: c.client_name,
    logoUri: c.logo_uri ?? null,
    redirectUris: c.redirect_uris,
    postLogoutRedirectUris: c.post_logout_redirect_uris,
    // the device grant is registered but not served yet
    grantTypes: c.grant_types.filter((g): g is OAuthGrantType => GRANT_TYPES.includes(g)),
    scopes: c.scope ? c.scope.split(' ') : [],
    authMethod: c.token_endpoint_auth_method,
    firstParty: c.first_party,
  };
}

function toClient(c: OidcClientConfig): OAuthClient {
  return {
    clientId: c.client_id,
    name: c.client_name ?? null,
    logoUri: c.logo_uri ?? null,
    redirectUris: c.redirect_uris ?? [],
    postLogoutRedirectUris: c.post_logout_redirect_uris ?? [],
    grantTypes: c.grant_types,
    scopes: c.scope ? c.scope.split(' ') : [],
    authMethod: c.token_endpoint_auth_method ?? (c.client_secret ? 'client_secret_basic' : 'none'),
    firstParty: c.first_party ?? false,
  };
}

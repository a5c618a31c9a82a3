import * as oidc from 'openid-client';
import type { Config, SocialProviderConfig } from '../../../config';
import { isAllowedProviderUrl, isNamedProvider } from '../../../config/social';
import { CATALOG, genericProfile } from './catalog';
import type { ProviderDefinition } from './types';

/** A configured provider, ready to talk to: its definition with the configured overrides applied. */
export interface Provider {
  id: string;
  settings: SocialProviderConfig;
  def: ProviderDefinition;
  /** `<PUBLIC_URL><base>/callback/<id>`: the redirect URI to register with the provider. */
  redirectUri: string;
  client: oidc.Configuration;
  /** The provider issues id tokens whose keys we can fetch (id-token sign-in, nonce in the flow). */
  supportsIdToken: boolean;
  /** Client ids an id token may be minted for. */
  audiences: string[];
}

/**
 * The providers of `social.providers`, built on first use: a generic OIDC provider needs its discovery document,
 * so a provider that is down does not stop the service from starting (its sign-ins fail until it answers).
 * A failed build is remembered for `social.discoveryRetrySec`: meanwhile every route of that provider fails at
 * once with no outbound call, so a provider that is down or hangs costs one attempt per wait, not one (or one
 * timeout) per request.
 */
export class ProviderRegistry {
  private readonly built = new Map<string, Promise<Provider>>();
  private readonly failed = new Map<string, { error: unknown; retryAt: number }>();

  constructor(
    private readonly config: Config,
    private readonly now: () => number,
  ) {}

  has(id: string): boolean {
    return Object.hasOwn(this.config.social.providers, id);
  }

  ids(): string[] {
    return Object.keys(this.config.social.providers);
  }

  /**
   * The provider, or null when `id` is not configured. Concurrent first calls share one build; a failed build
   * rejects again, unchanged, until its retry time, and the first call after that builds again.
   */
  async get(id: string): Promise<Provider | null> {
    if (!this.has(id)) return null;
    let pending = this.built.get(id);
    if (!pending) {
      const failure = this.failed.get(id);
      if (failure && this.now() < failure.retryAt) throw failure.error;
      pending = this.build(id, this.config.social.providers[id]);
      this.built.set(id, pending);
      pending.then(
        () => this.failed.delete(id),
        (error: unknown) => {
          this.built.delete(id);
          this.failed.set(id, { error, retryAt: this.now() + this.config.social.discoveryRetrySec * 1000 });
        },
      );
    }
    return pending;
  }

  private async build(id: string, settings: SocialProviderConfig): Promise<Provider> {
    const { def, discovered } = isNamedProvider(id)
      ? { def: withOverrides(CATALOG[id], settings), discovered: undefined }
      : await this.generic(settings);
    const issuer = def.issuer ?? new URL(def.authorizationEndpoint).origin;
    const server: oidc.ServerMetadata = {
      ...discovered, // the whole discovery document (iss response parameter, auth methods, …)
      issuer,
      authorization_endpoint: def.authorizationEndpoint,
      token_endpoint: def.tokenEndpoint,
      userinfo_endpoint: def.userInfoEndpoint,
      jwks_uri: def.jwksUri,
    };
    const secret = settings.clientSecret!;
    const methods = discovered?.token_endpoint_auth_methods_supported;
    const basic =
      def.tokenAuth === 'basic' ||
      (methods?.includes('client_secret_basic') && !methods.includes('client_secret_post'));
    const auth = basic ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret);
    // Multi-tenant Entra id tokens carry the user's tenant in iss: openid-client accepts that only when it
    // discovered the metadata itself ({tenantid} issuer template).
    const client = isMultiTenantMicrosoft(id, settings)
      ? await discover(`https://login.microsoftonline.com/${settings.tenantId ?? 'common'}/v2.0`, settings, this.config)
      : new oidc.Configuration(server, settings.clientId, { client_secret: secret }, auth);
    client.timeout = this.config.social.requestTimeoutSec;
    // http only for loopback outside production (config/social.ts checked every URL at start).
    if (Object.values(server).some((u) => typeof u === 'string' && u.startsWith('http:'))) {
      if (!Object.values(server).every((u) => typeof u !== 'string' || isAllowedProviderUrl(u, this.config.env)))
        throw new Error(`provider ${id}: http endpoints are only allowed on loopback outside production`);
      oidc.allowInsecureRequests(client);
    }
    return {
      id,
      settings,
      def,
      redirectUri: `${this.config.publicUrl}${this.config.basePath}/callback/${id}`,
      client,
      supportsIdToken: Boolean(def.issuer && def.jwksUri) && !settings.disableIdTokenSignIn,
      audiences: [settings.clientId, ...(settings.audiences ?? [])],
    };
  }

  /** A provider that is not named: OIDC from its discovery document, or OAuth 2 from explicit endpoints. */
  private async generic(
    settings: SocialProviderConfig,
  ): Promise<{ def: ProviderDefinition; discovered?: oidc.ServerMetadata }> {
    if (settings.type === 'oauth2') {
      const bare = { authorizationEndpoint: '', tokenEndpoint: '', scopes: [], mapProfile: genericProfile };
      return { def: withOverrides(bare, settings) };
    }
    const meta = (await discover(settings.discoveryUrl!, settings, this.config)).serverMetadata();
    const def = withOverrides(
      {
        authorizationEndpoint: meta.authorization_endpoint!,
        tokenEndpoint: meta.token_endpoint!,
        userInfoEndpoint: meta.userinfo_endpoint,
        issuer: meta.issuer,
        jwksUri: meta.jwks_uri,
        scopes: ['openid', 'email', 'profile'],
        mapProfile: genericProfile,
      },
      settings,
    );
    return { def, discovered: meta };
  }
}

const MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);
const isMultiTenantMicrosoft = (id: string, s: SocialProviderConfig) =>
  id === 'microsoft' && MULTI_TENANT.has(s.tenantId ?? 'common') && !s.issuer;

function discover(url: string, settings: SocialProviderConfig, config: Config): Promise<oidc.Configuration> {
  const server = new URL(url.replace(/\/\.well-known\/openid-configuration$/, ''));
  const insecure = server.protocol === 'http:' && isAllowedProviderUrl(url, config.env);
  return oidc.discovery(server, settings.clientId, settings.clientSecret, undefined, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
    timeout: config.social.requestTimeoutSec,
  });
}

/** The configured endpoints, tenant and scopes over the definition's. */
function withOverrides(def: ProviderDefinition, s: SocialProviderConfig): ProviderDefinition {
  const tenant = (u: string | undefined) => u?.replace('{tenant}', s.tenantId ?? 'common');
  const scopes = s.disableDefaultScope ? (s.scopes ?? []) : [...new Set([...def.scopes, ...(s.scopes ?? [])])];
  return {
    ...def,
    authorizationEndpoint: s.authorizationEndpoint ?? tenant(def.authorizationEndpoint)!,
    tokenEndpoint: s.tokenEndpoint ?? tenant(def.tokenEndpoint)!,
    userInfoEndpoint: s.userInfoEndpoint ?? tenant(def.userInfoEndpoint),
    issuer: s.issuer ?? tenant(def.issuer),
    jwksUri: s.jwksUri ?? tenant(def.jwksUri),
    scopes,
  };
}

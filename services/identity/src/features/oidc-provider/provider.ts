import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type Account, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcProviderConfig } from '../../config';
import type { SessionWithUser } from '../../shared/views';
import type { SigningKey } from '../jwt';
import type { AdapterFactory } from './adapter';
import type { ClientSource } from './clients';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages';
import { fromDatabase, mapped } from './unavailable';

/** The provider's endpoints under the issuer (the library's route names); better-auth's OIDC plugin paths. */
export const ENDPOINTS = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  userinfo: '/oauth2/userinfo',
  jwks: '/oauth2/jwks',
  introspection: '/oauth2/introspect',
  revocation: '/oauth2/revoke',
  end_session: '/oauth2/end-session',
  pushed_authorization_request: '/oauth2/par',
} as const;

/** The scopes every client may name beside its own, and the claims each releases. */
export const OIDC_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'picture', 'locale'],
} as const;

/** The service session a request carries, looked up only when the provider asks (its authorization endpoint). */
export type SessionLookup = () => Promise<SessionWithUser | null>;

/** What the provider's hooks need from the service. */
export interface ProviderParts {
  config: OidcProviderConfig & { issuer: string };
  /** The API's base path: the provider's endpoints are under it whatever the issuer's path. */
  basePath: string;
  /** The provider's own session lasts as long as a service session may. */
  sessionTtlSec: number;
  adapter: AdapterFactory;
  clients: ClientSource;
  /** The account behind an id, or undefined when there is none or it may not use tokens (banned). */
  findAccount(id: string): Promise<Account | undefined>;
  /** Signs the provider's cookies (interaction and session ids); the first signs, the others still verify. */
  cookieKeys: string[];
  /** The service session of a request the route handed over (null: none), when the route recorded one. */
  sessionOf(request: IncomingMessage): SessionLookup | undefined;
  /** Ends the service session of a request the route handed over, when the route recorded how. */
  signOutOf(request: IncomingMessage): (() => Promise<void>) | undefined;
  /** The grant an authorization starts from, made or extended for a first-party client (interaction.service.ts). */
  loadExistingGrant(ctx: KoaContextWithOIDC): Promise<InstanceType<Provider['Grant']> | undefined>;
  /** Where the browser goes for an interaction: the service's own route. */
  interactionUrl(uid: string): string;
  /** Logs what the provider answered `server_error` for (its own answer says nothing more). */
  warn(message: string): void;
}

/** A provider and its request listener, built for one key set. */
export interface BuiltProvider {
  provider: Provider;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

/**
 * Builds the library's provider over the service (docs/oidc-provider.md): its keys are the service's signing keys
 * (`keys`, built again when they change: the keystore is fixed at construction), its storage the adapter, its
 * clients the client source, its accounts the users, and its sign-in the service's own session:
 *
 * - the provider's session follows the service session of the browser: each time the provider reads its session
 *   (authorization requests), the service session decides who is signed in and since when (`loginTs` = the
 *   session's creation, so `max_age` counts from there). No service session: nobody is signed in at the provider
 *   either, whatever its own cookie says; another user's: the provider's session starts over for that user. A
 *   confirmed RP-initiated logout ends the service session with the provider's.
 * - PKCE with S256 on every authorization code request (the library knows no other method); refresh tokens rotate
 *   at each use; only the `code` response type.
 */
export function buildProvider(keys: SigningKey[], parts: ProviderParts, scopes: string[]): BuiltProvider {
  const { config } = parts;
  const configuration: Configuration = {
    adapter: parts.adapter,
    clients: [],
    jwks: { keys: keys.map((k) => ({ ...k.privateJwk })) as NonNullable<Configuration['jwks']>['keys'] },
    findAccount: (_ctx, id) => parts.findAccount(id),
    claims: Object.fromEntries(Object.entries(OIDC_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
    scopes: [...new Set(['openid', 'offline_access', ...Object.keys(OIDC_CLAIMS), ...scopes])],
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    rotateRefreshToken: () => true,
    // A client with the refresh_token grant gets refresh tokens: a first-party client always, another one when the
    // user granted `offline_access` (which the library keeps only on a request with prompt=consent).
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') &&
      (code.scopes.has('offline_access') || (await parts.clients.find(client.clientId))?.firstParty === true),
    routes: ENDPOINTS,
    cookies: {
      keys: parts.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: parts.basePath },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
      names: { session: 'oidc.session', interaction: 'oidc.interaction', resume: 'oidc.interaction_resume' },
    },
    interactions: { url: (_ctx, interaction) => parts.interactionUrl(interaction.uid) },
    loadExistingGrant: (ctx) => parts.loadExistingGrant(ctx),
    renderError: (ctx, out) => renderError(ctx, out),
    // A browser may call the token, userinfo, introspection and revocation endpoints from a client's own origin
    // (one of its redirect URIs'): a public client's always, a confidential client's for userinfo only.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== 'null' &&
      (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      (client.redirectUris ?? []).some((uri) => originOf(uri) === origin),
    features: {
      devInteractions: { enabled: false },
      introspection: {
        enabled: true,
        // A public client introspects only its own tokens (the library's rule); a token of a user who is gone or
        // banned is answered inactive.
        allowedPolicy: async (ctx, client, token) => {
          if (client.clientAuthMethod === 'none' && token.clientId !== ctx.oidc.client?.clientId) return false;
          const accountId = (token as { accountId?: string }).accountId;
          return !accountId || (await parts.findAccount(accountId)) !== undefined;
        },
      },
      revocation: {
        enabled: true,
        // A public client revokes only its own tokens; a confidential one is authenticated, and a token it does not
        // own is left as it is (the library's rule for that case).
        allowedPolicy: (ctx, client, token) =>
          client.clientAuthMethod !== 'none' || token.clientId === ctx.oidc.client?.clientId,
      },
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      pushedAuthorizationRequests: { enabled: true },
      registration: { enabled: false },
      deviceFlow: { enabled: false },
    },
    enabledJWA: {
      // No HS algorithms: a client's secret is checked by the client source and never used as a key.
      idTokenSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      userinfoSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      introspectionSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      authorizationSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requestObjectSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      clientAuthSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
    },
    ttl: {
      AccessToken: config.accessTokenTtlSec,
      ClientCredentials: config.accessTokenTtlSec,
      AuthorizationCode: config.authorizationCodeTtlSec,
      IdToken: config.idTokenTtlSec,
      RefreshToken: config.refreshTokenTtlSec,
      Grant: config.grantTtlSec,
      Interaction: config.interactionTtlSec,
      Session: parts.sessionTtlSec,
    },
  };
  const provider = new Provider(config.issuer, configuration);
  // The route hands the provider the issuer's scheme and host and the caller's address (endpoints.ts).
  provider.proxy = true;
  // A 503 (unavailable.ts) says when to try again, as the service's own 503 answers do.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 503) ctx.set('retry-after', '1');
  });
  provider.on('server_error', (_ctx: unknown, error: Error) =>
    parts.warn(`OpenID provider server_error: ${error.message}`),
  );
  followServiceSession(provider, parts);
  checkSecretsAtSource(provider, parts.clients);
  const listener = provider.callback();
  return { provider, handle: (request, response) => listener(request, response) as unknown as Promise<void> };
}

/** The service session decides who is signed in at the provider (see buildProvider). */
function followServiceSession(provider: Provider, parts: ProviderParts): void {
  const Session = provider.Session;
  const read = Session.get.bind(Session);
  Session.get = async (ctx) => {
    const session = await read(ctx);
    const lookup = parts.sessionOf(ctx.req);
    if (!lookup) return session;
    // RP-initiated logout, confirmed: the browser signs out of the service too, or the next request would find
    // it signed in again (its provider session follows the service session).
    const signOut = parts.signOutOf(ctx.req);
    if (signOut && (ctx as { oidc?: { route?: string } }).oidc?.route === 'end_session_confirm') {
      const destroy = session.destroy.bind(session);
      session.destroy = async () => {
        await mapped(signOut, fromDatabase);
        await destroy();
      };
    }
    const signedIn = await mapped(lookup, fromDatabase);
    const state = session as unknown as Record<string, unknown> & { touched?: boolean };
    if (!signedIn) {
      if (session.accountId) {
        session.resetIdentifier();
        for (const key of ['accountId', 'loginTs', 'acr', 'amr', 'authorizations', 'transient']) delete state[key];
      }
      return session;
    }
    const loginTs = epoch(signedIn.session.createdAt);
    if (session.accountId !== signedIn.user.id) {
      if (session.accountId) {
        session.resetIdentifier();
        delete state.authorizations;
      }
      session.loginAccount({ accountId: signedIn.user.id, loginTs });
      state.touched = true;
    } else if (session.loginTs !== loginTs) {
      session.loginAccount({ accountId: signedIn.user.id, loginTs });
      state.touched = true;
    }
    return session;
  };
}

/** A confidential client's secret is checked by the client source (which may hold only a hash), not compared here. */
function checkSecretsAtSource(provider: Provider, clients: ClientSource): void {
  const Client = provider.Client as unknown as {
    prototype: { clientId: string; compareClientSecret(s: string): unknown };
  };
  Client.prototype.compareClientSecret = function compareClientSecret(this: { clientId: string }, actual: string) {
    return clients.verifySecret(this.clientId, actual);
  };
}

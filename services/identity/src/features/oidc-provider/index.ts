import type { Config } from '../../config';
import { deriveKeys } from '../../crypto/keys';
import { auditSource } from '../../http/audit-source';
import type { FeatureRoutes } from '../../http/web';
import { accountFinder } from './accounts';
import { createAdapterFactory } from './adapter';
import {
  type ClientRegistry,
  type ClientSource,
  ClientSources,
  RegisteredClientSource,
  StaticClientSource,
} from './clients';
import type { OidcProviderDeps } from './deps';
import { endpointRoutes, wellKnownRoutes } from './endpoints.routes';
import { ProviderGateway } from './gateway';
import { ProviderHost } from './host';
import { interactionRoutes } from './interaction.routes';
import { type InteractionPages, InteractionService } from './interaction.service';
import type { ProviderParts } from './provider';
import { RecordRepository } from './repository';
import type { OidcProviderWeb } from './web';

export type {
  ClientAuthMethod,
  ClientRegistry,
  ClientSource,
  OAuthClient,
  OAuthGrantType,
  RegisteredClient,
} from './clients';
export type { OidcProviderDeps } from './deps';

/** The library's tolerance for clocks (its default): a record is still accepted this long past its expiry. */
const CLOCK_TOLERANCE_SEC = 15;

/**
 * The OpenID Provider (docs/oidc-provider.md): OAuth 2.1 and OpenID Connect on the certified `oidc-provider`
 * library, signing users in with the service's own sessions, bans and signing keys. Its route tables:
 *
 *   endpoints.routes     oauth2/authorize · token · userinfo · jwks · introspect · revoke · end-session · par
 *                        (handed over to the library), and the discovery documents at the root
 *   interaction.routes   interaction/:uid/continue · interaction/:uid · interaction/:uid/consent
 */
export interface OidcProviderFeature extends FeatureRoutes {
  /** The provider for the current key set (built again when the keys change). */
  host: ProviderHost;
  interactions: InteractionService;
  /** Deletes expired grants and refresh tokens, up to `batch`; answers how many went. */
  sweepExpired(batch: number): Promise<number>;
}

/**
 * The provider's clients, given to the feature by wiring.ts: the configuration's, then the operators' registry's
 * (`knownScopes`: every scope a registration may name).
 */
export function providerClients(config: Config, registry: ClientRegistry, knownScopes: string[]): ClientSource {
  return new ClientSources(
    new StaticClientSource(config.oidcProvider.clients),
    new RegisteredClientSource(registry, knownScopes),
  );
}

export function createOidcProviderFeature(deps: OidcProviderDeps): OidcProviderFeature {
  const { config, clock, clients } = deps;
  const op = config.oidcProvider;
  const issuer = op.issuer ?? `${config.publicUrl}${config.basePath}`;
  const basePath = config.basePath;
  const records = new RecordRepository(deps.sql);
  const adapter = createAdapterFactory({
    store: deps.store,
    records,
    clients,
    clock,
    toleranceSec: CLOCK_TOLERANCE_SEC,
    revokedGrantTtlSec: Math.max(op.accessTokenTtlSec, op.authorizationCodeTtlSec) + CLOCK_TOLERANCE_SEC,
  });
  const hosted = `${config.publicUrl}${config.hostedPages.path}`;
  const pages: InteractionPages & { error(code: string): string } = {
    signIn: (callbackURL) => `${hosted}/sign-in?callbackURL=${encodeURIComponent(callbackURL)}`,
    consent: (uid) => `${hosted}/consent?interaction=${encodeURIComponent(uid)}`,
    continueUrl: (uid) => `${config.publicUrl}${basePath}/interaction/${encodeURIComponent(uid)}/continue`,
    error: (code) => `${hosted}/error?error=${encodeURIComponent(code)}`,
  };
  const parts: ProviderParts = {
    config: { ...op, issuer },
    basePath,
    sessionTtlSec: config.session.expiresInSec,
    adapter,
    clients,
    findAccount: accountFinder((id) => deps.getUser(id), clock),
    cookieKeys: deriveKeys(config, 'oidc-provider-cookies').map((key) => key.toString('base64url')),
    sessionOf: (request) => gateway.sessionOf(request),
    signOutOf: (request) => gateway.signOutOf(request),
    loadExistingGrant: (ctx) => interactions.loadExistingGrant(ctx),
    interactionUrl: (uid) => `${basePath}/interaction/${encodeURIComponent(uid)}/continue`,
    warn: deps.warn,
  };
  const host = new ProviderHost(deps.keys, clients, parts);
  const gateway = new ProviderGateway(host, issuer, basePath, config.requestTimeoutMs, deps.lifecycle);
  const interactions = new InteractionService(host, clients, pages);
  const web = (shared: Parameters<FeatureRoutes['routes']>[1]): OidcProviderWeb => ({
    ...shared,
    gateway,
    interactions,
    pages,
    // As POST /sign-out does: the session revoked (user.signed_out), its cookies cleared, here on the provider's answer.
    async serviceSignOut(request, response) {
      const token = shared.cookies.readToken(request);
      if (token) await deps.sessions.revoke(token, { type: 'user.signed_out', source: auditSource(request) });
      // Our options never say `secure: 'auto'` (session-cookies.ts decides it from PUBLIC_URL).
      const values = shared.cookies.clearing((name, value, options) =>
        request.server.serializeCookie(name, value, options as Parameters<typeof request.server.serializeCookie>[2]),
      );
      for (const value of values) response.appendHeader('set-cookie', value);
    },
  });
  return {
    host,
    interactions,
    sweepExpired: (batch) => records.sweepExpired(new Date(clock.now() - CLOCK_TOLERANCE_SEC * 1000), batch),
    async routes(app, shared) {
      const ctx = web(shared);
      await app.register(endpointRoutes, ctx);
      await app.register(interactionRoutes, ctx);
    },
    async rootRoutes(app, shared) {
      await app.register(wellKnownRoutes, web(shared));
    },
  };
}

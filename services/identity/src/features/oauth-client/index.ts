import type { FeatureRoutes } from '../../http/web';
import { oauthClientRoutes } from './clients.routes';
import { OAuthClients } from './clients.service';
import type { OAuthClientFeatureDeps } from './deps';
import { ClientRegistry, type OAuthClientSource } from './registry';
import { OAuthClientRepository } from './repository';
import { knownScopes } from './scopes';

export type { OAuthClients } from './clients.service';
export type { OAuthClientAdminAccess, OAuthClientFeatureDeps } from './deps';
export type { ClientMetadata, OAuthClientSource } from './registry';
export { knownScopes, STANDARD_SCOPES } from './scopes';

/**
 * The registered OAuth clients (docs/oauth-clients.md): the applications that may sign users in through the
 * service's OpenID Provider, managed by operators. Its route table (admin feature on):
 *
 *   clients.routes   admin/create-oauth-client · list-oauth-clients · get-oauth-client · update-oauth-client ·
 *                    delete-oauth-client · rotate-oauth-client-secret · list-oauth-scopes
 *
 * `registry` is what the provider reads: a client's metadata by id, and the check of a presented secret.
 */
export interface OAuthClientFeature extends FeatureRoutes {
  clients: OAuthClients;
  registry: OAuthClientSource;
}

export function createOAuthClientFeature(deps: OAuthClientFeatureDeps): OAuthClientFeature {
  const repo = new OAuthClientRepository(deps.sql);
  const scopes = knownScopes(deps.config.oauthClients);
  const clients = new OAuthClients({
    sql: deps.sql,
    repo,
    clock: deps.clock,
    audit: deps.audit,
    admin: deps.admin,
    config: deps.config.oauthClients,
    scopes,
  });
  return {
    clients,
    registry: new ClientRegistry(repo, deps.clock),
    async routes(app, web) {
      if (!web.config.features.admin) return;
      await app.register(oauthClientRoutes, { ...web, clients, scopes });
    },
  };
}

import type { FeatureRoutes } from '../../http/web';
import { apiKeyRoutes } from './api-key.routes';
import { ApiKeyService } from './api-key.service';
import type { ApiKeyFeatureDeps } from './deps';
import { ApiKeyRepository } from './repository';
import { ApiKeyVerifier } from './verify.service';

export type { ApiKeyService } from './api-key.service';
export type { ApiKeyFeatureDeps } from './deps';

/**
 * API keys (better-auth's api-key plugin paths). Its route table:
 *
 *   api-key.routes   api-key/create · api-key/get · api-key/list · api-key/update · api-key/delete · api-key/verify
 *
 * The composition root also hands `apiKeys` to the shared guards (src/http/web.ts): a key in the configured header
 * stands for its owner's session, and keys with `service: ['act']` are the service credential.
 */
export interface ApiKeyFeature extends FeatureRoutes {
  apiKeys: ApiKeyService;
}

export function createApiKeyFeature(deps: ApiKeyFeatureDeps): ApiKeyFeature {
  const repo = new ApiKeyRepository(deps.sql);
  const apiKeys = new ApiKeyService({
    repo,
    verifier: new ApiKeyVerifier(repo, deps.store, deps.config.apiKey, deps.clock),
    config: deps.config,
    clock: deps.clock,
    getUser: deps.getUser,
    organizations: deps.organizations,
    admin: deps.admin,
    sql: deps.sql,
    audit: deps.audit,
  });
  return {
    apiKeys,
    async routes(app, web) {
      await app.register(apiKeyRoutes, { ...web, apiKeys });
    },
  };
}

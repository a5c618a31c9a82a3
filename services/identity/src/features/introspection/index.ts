import type { FeatureRoutes } from '../../http/web';
import type { IntrospectionDeps } from './deps';
import { introspectionRoutes } from './introspection.routes';
import { IntrospectionService } from './introspection.service';

export type { IntrospectionDeps } from './deps';
export type { Introspection, IntrospectionService } from './introspection.service';

/**
 * Token introspection for internal services (server-only, the service credential):
 *
 *   introspection.routes   introspect · introspect/batch
 */
export interface IntrospectionFeature extends FeatureRoutes {
  introspection: IntrospectionService;
}

export function createIntrospectionFeature(deps: IntrospectionDeps): IntrospectionFeature {
  const introspection = new IntrospectionService(deps.sessions, deps.tokens);
  return {
    introspection,
    async routes(app, web) {
      await app.register(introspectionRoutes, { ...web, introspection });
    },
  };
}

import type { Redis } from 'ioredis';
import type { FeatureRoutes } from '../../http/web';
import type { Sql } from '../../shared/sql';
import { healthRoutes } from './health.routes';
import { ReadinessCheck } from './readiness';
import { systemRoutes } from './system.routes';

export { describeResults, runConsistencyChecks } from './consistency.service';

/** What the probes ask: the database, Redis when configured, and whether the instance is draining. */
export interface SystemDeps {
  sql: Sql;
  redis: Redis | null;
  lifecycle: { draining: boolean };
}

/**
 * Probes and system pages:
 *
 *   health.routes   health/live · health/ready
 *   system.routes   ok · error
 */
export function createSystemFeature(deps: SystemDeps): FeatureRoutes {
  const readiness = new ReadinessCheck(deps.sql, deps.redis, deps.lifecycle);
  return {
    async routes(app) {
      await app.register(healthRoutes, { readiness });
      await app.register(systemRoutes);
    },
  };
}

import { deriveKey } from '../../crypto/keys';
import type { FeatureRoutes } from '../../http/web';
import { requireOrganizationSession } from '../organization';
import type { AuditFeatureDeps } from './deps';
import { EventRepository } from './events.repository';
import { adminEventRoutes, organizationEventRoutes } from './events.routes';
import { AuditEvents } from './events.service';
import { EventRetention } from './retention.service';

export type { AdminAuditAccess, AuditFeatureDeps, OrganizationAuditAccess } from './deps';
export { type EventFilter, listEventsSql, MONTHS_AHEAD } from './events.repository';
export { type AuditEvents, type EventFollower, type EventPage, eventData, type RecordedEvent } from './events.service';
export type { EventRetention, PruneResult } from './retention.service';
export type { EventData, EventView, ListEventsQuery } from './schemas';

/**
 * The audit trail (docs/audit.md): the writer every other feature records its changes through,
 * in the change's own transaction, the reads, and retention. Its route table:
 *
 *   events.routes   admin/list-events (when features.admin) · organization/list-events (when features.organization)
 */
export interface AuditFeature extends FeatureRoutes {
  /** The writer (`record(tx, event)`) and the reads. */
  events: AuditEvents;
  /** Drops events past AUDIT_RETENTION_DAYS and makes the partitions ahead (the events:prune command). */
  retention: EventRetention;
}

export function createAuditFeature(deps: AuditFeatureDeps): AuditFeature {
  const { sql, clock, config } = deps;
  const repo = new EventRepository(sql);
  const events = new AuditEvents(repo, clock, deriveKey(config.secret, 'audit-email'), {
    admin: deps.admin,
    organization: deps.organization,
  });
  return {
    events,
    retention: new EventRetention(repo, clock, config.audit.retentionDays),
    async routes(app, web) {
      if (web.config.features.admin) await app.register(adminEventRoutes, { events, session: web.requireSession });
      if (web.config.features.organization)
        await app.register(organizationEventRoutes, { events, session: requireOrganizationSession(web) });
    },
  };
}

import { deriveKey } from '../../crypto/keys';
import type { FeatureRoutes } from '../../http/web';
import { requireOrganizationSession } from '../organization';
import type { AuditFeatureDeps, AuditReadsDeps } from './deps';
import { EventReads } from './event-reads.service';
import { EventRepository } from './events.repository';
import { adminEventRoutes, organizationEventRoutes } from './events.routes';
import { AuditEvents } from './events.service';
import { EventRetention } from './retention.service';

export type { AdminAuditAccess, AuditFeatureDeps, AuditReadsDeps, OrganizationAuditAccess } from './deps';
export type { EventReads } from './event-reads.service';
export { type EventFilter, listEventsSql, MONTHS_AHEAD } from './events.repository';
export { type AuditEvents, type EventFollower, type EventPage, eventData, type RecordedEvent } from './events.service';
export type { EventRetention, PruneResult } from './retention.service';
export type { EventData, EventView, ListEventsQuery } from './schemas';

/**
 * The audit trail (docs/audit.md), in two parts. The writer every other feature records its changes through, in
 * the change's own transaction, and retention: built first (`createAuditFeature`). The reads, whose permission
 * checks are the admin and organization features' (built after the writer, since they record through it):
 * built last (`createAuditReads`), with their route table:
 *
 *   events.routes   admin/list-events (when features.admin) · organization/list-events (when features.organization)
 */
export interface AuditFeature {
  /** The writer (`record(tx, event)`). */
  events: AuditEvents;
  /** Drops events past AUDIT_RETENTION_DAYS and makes the partitions ahead (the events:prune command). */
  retention: EventRetention;
}

export function createAuditFeature(deps: AuditFeatureDeps): AuditFeature {
  const { sql, clock, config } = deps;
  const repo = new EventRepository(sql);
  return {
    events: new AuditEvents(repo, clock, deriveKey(config.secret, 'audit-email'), deps.followers),
    retention: new EventRetention(repo, clock, config.audit.retentionDays),
  };
}

export interface AuditReadsFeature extends FeatureRoutes {
  reads: EventReads;
}

export function createAuditReads(deps: AuditReadsDeps): AuditReadsFeature {
  const reads = new EventReads(new EventRepository(deps.sql), (email) => deps.events.emailTarget(email), {
    admin: deps.admin,
    organization: deps.organization,
  });
  return {
    reads,
    async routes(app, web) {
      if (web.config.features.admin) await app.register(adminEventRoutes, { reads, session: web.requireSession });
      if (web.config.features.organization)
        await app.register(organizationEventRoutes, { reads, session: requireOrganizationSession(web) });
    },
  };
}

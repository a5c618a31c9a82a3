import type { Web } from '../../http/web';
import type { AuditEvents } from './events.service';

/** What the audit feature's route tables get: the shared `Web` and the feature's own services. */
export interface AuditWeb extends Web {
  events: AuditEvents;
}

import type { Web } from '../../http/web';
import type { SessionService } from './session.service';

/** What the session routes use: the shared web parts and the feature's own service. */
export interface SessionWeb extends Web {
  sessions: SessionService;
}

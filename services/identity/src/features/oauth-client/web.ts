import type { Web } from '../../http/web';
import type { OAuthClients } from './clients.service';

/** What the OAuth client feature's route table gets: the shared `Web` and the feature's admin service. */
export interface OAuthClientWeb extends Web {
  clients: OAuthClients;
  /** Every scope a client may be allowed (scopes.ts). */
  scopes: readonly string[];
}

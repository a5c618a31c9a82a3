import type { AdminFeatureDeps } from './deps';
import type { AdminRepository } from './repository';
import type { TrigramSample } from './search-sample';

/**
 * What the admin services use: what the feature was given and its own parts, built once in index.ts; each service
 * takes the few it uses (a Pick of this).
 */
export interface AdminParts extends AdminFeatureDeps {
  repo: AdminRepository;
  /** Frequent trigrams of emails and names, to keep list-users' index lookups selective. */
  trigrams: TrigramSample;
}

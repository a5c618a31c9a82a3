import type { Web } from '../../http/web';
import type { ApiKeyService } from './api-key.service';

/** What the api-key feature's route tables get: the shared `Web` and the feature's own services. */
export interface ApiKeyWeb extends Web {
  apiKeys: ApiKeyService;
}

import type { Web } from '../../http/web';
import type { PasskeyService } from './passkey.service';

/** What the passkey feature's route tables get: the shared `Web` and the feature's own services. */
export interface PasskeyWeb extends Web {
  passkeys: PasskeyService;
}

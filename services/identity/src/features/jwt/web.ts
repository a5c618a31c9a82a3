import type { Web } from '../../http/web';
import type { SigningKeys } from './signing-keys';
import type { SessionTokens } from './token.service';

/** What the jwt feature's route tables get: the shared `Web` and the feature's own services. */
export interface JwtWeb extends Web {
  keys: SigningKeys;
  tokens: SessionTokens;
}

import type { SessionTokens } from '../jwt';
import type { SessionService } from '../session';

/** What introspection needs: the session lookup and the JWT verifier. */
export interface IntrospectionDeps {
  sessions: SessionService;
  tokens: SessionTokens;
}

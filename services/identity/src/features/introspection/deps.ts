import type { Web } from '../../http/web';
import type { SessionTokens } from '../jwt';
import type { SessionService } from '../session';
import type { IntrospectionService } from './introspection.service';

/** What introspection needs: the session lookup and the JWT verifier. */
export interface IntrospectionDeps {
  sessions: SessionService;
  tokens: SessionTokens;
}

export interface IntrospectionWeb extends Web {
  introspection: IntrospectionService;
}

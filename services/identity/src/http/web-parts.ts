import type { Permissions } from '../access';
import type { Config } from '../config';
import type { ErrorCode } from '../errors';
import type { Metrics } from '../infra/metrics';
import type { Clock } from '../shared/clock';
import type { SignInSteps } from '../shared/sign-in';
import type { ApiKeyView, SessionView, SessionWithUser } from '../shared/views';
import type { TrustedOrigins } from './origins';
import type { SessionCookies } from './session-cookies';

/** The session lookup the guards need, in the session feature's words (its SessionService fits). */
export interface SessionLookup {
  resolve(
    token: string,
    options: { source: 'cache' | 'database'; refresh: boolean },
  ): Promise<{ current: SessionWithUser | null; expired: boolean }>;
  isFresh(session: SessionView): boolean;
}

export type KeyRefusal = { valid: false; code: ErrorCode; tryAgainIn?: number };

/** The API key checks the guards need (the api-key feature's service fits). */
export interface KeyAuthority {
  /** A user's key standing for a session of its owner, made for this request only. */
  sessionFor(
    presented: string,
    client: { ipAddress: string | null; userAgent: string | null },
  ): Promise<KeyRefusal | { valid: true; key: ApiKeyView; session: SessionWithUser }>;
  /** Verifies a key (one use spent), and that it holds `permissions` when given. */
  verify(presented: string, permissions?: Permissions): Promise<KeyRefusal | { valid: true; key: ApiKeyView }>;
}

/** What `createWeb` is built from: the infrastructure's parts and the two features the guards ask. */
export interface WebParts {
  config: Config;
  clock: Clock;
  cookies: SessionCookies;
  trusted: TrustedOrigins;
  metrics: Metrics;
  sessions: SessionLookup;
  apiKeys: KeyAuthority;
  signIn: SignInSteps;
}

import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Config } from '../config';
import type { Metrics } from '../infra/metrics';
import type { Clock } from '../shared/clock';
import type { SignInContext, SignInSteps } from '../shared/sign-in';
import type { SessionWithUser } from '../shared/views';
import { auditSource } from './audit-source';
import type { TrustedOrigins } from './origins';
import { optionalSession, requireFreshSession, requireSession } from './require-session';
import { assertServiceCredential, requireServiceCredential } from './service-auth';
import type { SessionCookies } from './session-cookies';
import type { WebParts } from './web-parts';

export type { KeyAuthority, KeyRefusal, SessionLookup, WebParts } from './web-parts';

/**
 * What every route table gets besides its own feature's services: the settings, the clock, the cookies, trusted
 * origins, metrics, and the guards (a session, a fresh session, the service credential). The composition root
 * builds it once, after the features, so a guard can ask the session and API key features without any feature
 * knowing the other.
 */
export interface Web {
  readonly config: Config;
  readonly clock: Clock;
  readonly cookies: SessionCookies;
  readonly trusted: TrustedOrigins;
  readonly metrics: Metrics;
  /** preHandler: the caller's session from PostgreSQL (or a user's API key standing for one), else 401. */
  readonly requireSession: preHandlerHookHandler;
  /** preHandler: as requireSession, and created within the fresh age (docs/SPEC.md §5). */
  readonly requireFreshSession: preHandlerHookHandler;
  /** preHandler: the service credential in the key header (server-only routes). */
  readonly requireServiceCredential: preHandlerHookHandler;
  assertServiceCredential(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /** The caller's session when there is a valid one, else null (routes that also serve anonymous callers). */
  optionalSession(request: FastifyRequest): Promise<SessionWithUser | null>;
  /**
   * The sign-in seam (docs/architecture.md "The sign-in seam"): a route of a sign-in method hands it the identity
   * its service proved, then applies the result with `cookies.applySignIn`.
   */
  readonly signIn: SignInSteps;
  /** The request's part in a sign-in: its audit source and the trusted-device cookie it presented. */
  signInContext(request: FastifyRequest): SignInContext;
}

export function createWeb(parts: WebParts): Web {
  return {
    config: parts.config,
    clock: parts.clock,
    cookies: parts.cookies,
    trusted: parts.trusted,
    metrics: parts.metrics,
    requireSession: requireSession(parts),
    requireFreshSession: requireFreshSession(parts),
    requireServiceCredential: requireServiceCredential(parts),
    assertServiceCredential: (request, reply) => assertServiceCredential(parts, request, reply),
    optionalSession: (request) => optionalSession(parts, request),
    signIn: parts.signIn,
    signInContext: (request) => ({
      source: auditSource(request),
      trustedDevice: parts.cookies.readTrustedDevice(request),
    }),
  };
}

/**
 * A feature as the composition root sees it: its route table, registered under the base path (and `prefix`) with
 * the shared `Web`. A feature's factory (`create…Feature` in its index.ts) returns one of these together with
 * the small public interface other features may use.
 */
export interface FeatureRoutes {
  readonly prefix?: string;
  routes(app: FastifyInstance, web: Web): Promise<void>;
  /** Routes at the root of the port, outside the base path: documents a standard puts there (`/.well-known/…`). */
  rootRoutes?(app: FastifyInstance, web: Web): Promise<void>;
}

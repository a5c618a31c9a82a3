import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify';
import type { RoutePolicy } from '../../http/route-policy';
import { ENDPOINTS } from './provider';
import type { OidcProviderWeb } from './web';

/** Each client-authenticated endpoint checks a secret, a code or a token: a limit above any honest client's pace. */
const CLIENT_CALLS = { rateLimit: { windowSec: 60, max: 120 } } as const satisfies RoutePolicy;
/** Each request stores a pending authorization (an interaction, a pushed request). */
const STARTS = { rateLimit: 'challenge' } as const satisfies RoutePolicy;

/**
 * The library's endpoints under the base path (docs/oidc-provider.md, "Endpoints"), each a route of its own, so
 * each has the service's hooks and its own rate limit, and answered by the provider (gateway.ts). OPTIONS goes to
 * the provider too where it answers CORS (per client). Not in the OpenAPI document: the library's, documented by
 * the standards and the discovery document.
 */
const ROUTES: Array<{ url: string; methods: HTTPMethods[]; policy?: RoutePolicy }> = [
  { url: ENDPOINTS.authorization, methods: ['GET'], policy: STARTS },
  { url: `${ENDPOINTS.authorization}/:uid`, methods: ['GET'] },
  { url: ENDPOINTS.pushed_authorization_request, methods: ['POST', 'OPTIONS'], policy: STARTS },
  { url: ENDPOINTS.token, methods: ['POST', 'OPTIONS'], policy: CLIENT_CALLS },
  { url: ENDPOINTS.userinfo, methods: ['GET', 'POST', 'OPTIONS'] },
  { url: ENDPOINTS.jwks, methods: ['GET', 'OPTIONS'] },
  { url: ENDPOINTS.introspection, methods: ['POST', 'OPTIONS'], policy: CLIENT_CALLS },
  { url: ENDPOINTS.revocation, methods: ['POST', 'OPTIONS'], policy: CLIENT_CALLS },
  { url: ENDPOINTS.end_session, methods: ['GET'] },
  { url: `${ENDPOINTS.end_session}/confirm`, methods: ['POST'] },
  { url: `${ENDPOINTS.end_session}/success`, methods: ['GET'] },
];

/**
 * What every hand-over route states: the provider parses and checks its own input (form-urlencoded bodies) and
 * answers CORS per client, so neither the service's JSON-only rule nor its input check, its Origin check or its
 * trusted-origin CORS applies.
 */
const HANDED_OVER = { skipOriginCheck: true, handedOver: true } as const;

/** The discovery documents read no session. */
const NO_SESSION = { session: async () => null, signOut: async () => {} };

/** Lets every body through unread, whatever its type: the provider reads it (and limits it) itself. */
function providerBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
}

export async function endpointRoutes(app: FastifyInstance, ctx: OidcProviderWeb): Promise<void> {
  providerBodies(app);
  const handler: RouteHandlerMethod = (request, reply) =>
    ctx.gateway.handOver(request, reply, {
      session: () => ctx.optionalSession(request),
      signOut: () => ctx.serviceSignOut(request, reply.raw),
    });
  for (const route of ROUTES)
    app.route({
      method: route.methods,
      url: route.url,
      schema: { hide: true },
      config: { ...HANDED_OVER, ...(route.policy ? { policy: route.policy } : {}) },
      handler,
    });
}

/**
 * The discovery documents where the standards put them: `<issuer>/.well-known/openid-configuration` (OpenID
 * Connect Discovery) and `/.well-known/oauth-authorization-server<issuer path>` (RFC 8414), both the provider's.
 */
export async function wellKnownRoutes(app: FastifyInstance, ctx: OidcProviderWeb): Promise<void> {
  providerBodies(app);
  const issuerPath = new URL(ctx.config.oidcProvider.issuer!).pathname.replace(/\/+$/, '');
  const documents = [
    { url: `${issuerPath}/.well-known/openid-configuration`, inner: '/.well-known/openid-configuration' },
    { url: `/.well-known/oauth-authorization-server${issuerPath}`, inner: '/.well-known/oauth-authorization-server' },
  ];
  for (const { url, inner } of documents)
    app.route({
      method: ['GET', 'OPTIONS'],
      url,
      schema: { hide: true },
      config: HANDED_OVER,
      handler: (request, reply) => ctx.gateway.handOver(request, reply, NO_SESSION, inner),
    });
}

import type { FastifyRequest } from 'fastify';
import type { AuditActor, AuditSource } from '../shared/audit';
import type { SessionWithUser } from '../shared/views';

/** A request id is the client's `x-request-id` when it sent one: kept short in the trail. */
const MAX_REQUEST_ID = 128;
const MAX_USER_AGENT = 512;

/**
 * The actor behind a request, from what its guards set: the session's user (and the admin behind an impersonation
 * session), the user's API key standing for a session, a service credential, or nobody.
 */
export function actorOf(request: FastifyRequest): AuditActor {
  const auth = request.auth as FastifyRequest['auth'] | undefined;
  if (auth && request.apiKey) return { type: 'api_key', id: request.apiKey.id, userId: auth.user.id };
  if (auth) return { type: 'user', id: auth.user.id, impersonatorId: auth.session.impersonatedBy };
  if (request.apiKey) return { type: 'service', id: request.apiKey.id };
  if (request.staticServiceCredential) return { type: 'service', id: 'static' };
  return { type: 'anonymous' };
}

/** The service credential that authenticated a server-only route (set-password acts on a user's session for it). */
export function serviceActorOf(request: FastifyRequest): AuditActor {
  if (request.apiKey) return { type: 'service', id: request.apiKey.id };
  return request.staticServiceCredential ? { type: 'service', id: 'static' } : actorOf(request);
}

/**
 * Where a change came from, for the audit trail (docs/audit.md): built by the route after its guards ran and
 * passed to the service explicitly (nothing per request on paths that record nothing, such as get-session).
 */
export function auditSource(request: FastifyRequest, actor: AuditActor = actorOf(request)): AuditSource {
  return {
    actor,
    ipAddress: request.ip ?? null,
    userAgent: request.headers['user-agent']?.slice(0, MAX_USER_AGENT) ?? null,
    requestId: request.id ? String(request.id).slice(0, MAX_REQUEST_ID) : null,
  };
}

/** The caller's session with where the request came from: for services that take the caller (organizations). */
export function withSource(request: FastifyRequest): SessionWithUser & { source: AuditSource } {
  return { ...request.auth, source: auditSource(request) };
}

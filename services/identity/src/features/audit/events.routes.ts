import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import type { EventReads } from './event-reads.service';
import { AdminListEvents, OrganizationListEvents } from './schemas';

export interface AuditRouteOptions {
  reads: EventReads;
  session: preHandlerHookHandler;
}

/** GET admin/list-events: every event (admin audit:read). */
export async function adminEventRoutes(fastify: FastifyInstance, opts: AuditRouteOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/admin/list-events', { schema: AdminListEvents, preHandler: opts.session }, async (request) =>
    opts.reads.listAll(request.auth, request.query),
  );
}

/** GET organization/list-events: one organization's events (organization audit:read). */
export async function organizationEventRoutes(fastify: FastifyInstance, opts: AuditRouteOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/organization/list-events', { schema: OrganizationListEvents, preHandler: opts.session }, async (request) =>
    opts.reads.listOrganization(request.auth, request.query),
  );
}

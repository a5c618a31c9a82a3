import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { withSource } from '../../http/audit-source';
import {
  CheckSlug,
  CreateOrganization,
  DeleteOrganization,
  GetFullOrganization,
  ListOrganizations,
  SetActiveOrganization,
  UpdateOrganization,
} from './organization.schemas';
import { reissue } from './reply';
import type { OrganizationWeb } from './web';

export async function organizationRoutes(fastify: FastifyInstance, opts: OrganizationWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx, org, session: preHandler } = opts;

  app.post('/create', { schema: CreateOrganization, preHandler }, async (request, reply) => {
    const { result, session } = await org.organizations.create(withSource(request), request.body);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.post('/check-slug', { schema: CheckSlug, preHandler }, async (request) =>
    org.organizations.checkSlug(request.body.slug),
  );

  app.post('/update', { schema: UpdateOrganization, preHandler }, async (request) =>
    org.organizations.update(withSource(request), request.body),
  );

  app.post('/delete', { schema: DeleteOrganization, preHandler }, async (request, reply) => {
    const { result, session } = await org.organizations.delete(withSource(request), request.body.organizationId);
    reissue(ctx, request, reply, session);
    return result;
  });

  app.get('/list', { schema: ListOrganizations, preHandler }, async (request) =>
    org.organizations.list(request.auth.user.id),
  );

  app.get('/get-full-organization', { schema: GetFullOrganization, preHandler }, async (request) =>
    org.reads.getFull(request.auth, request.query),
  );

  // A key's session is made for one request: it has no active organization to set (docs/api-keys.md).
  app.post(
    '/set-active',
    { schema: SetActiveOrganization, preHandler, config: { policy: { apiKeys: 'refused' } } },
    async (request, reply) => {
      const { result, session } = await org.organizations.setActive(request.auth, request.body);
      reissue(ctx, request, reply, session);
      return result;
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { withSource } from '../../http/audit-source';
import {
  AddTeamMember,
  CreateTeam,
  ListTeams,
  ListUserTeams,
  RemoveTeam,
  RemoveTeamMember,
  UpdateTeam,
} from './team.schemas';
import type { OrganizationWeb } from './web';

/** Registered only when teams are enabled (organization.teams.enabled). */
export async function teamRoutes(fastify: FastifyInstance, opts: OrganizationWeb) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { org, session: preHandler } = opts;

  app.post('/create-team', { schema: CreateTeam, preHandler }, async (request) =>
    org.teams.create(withSource(request), request.body),
  );
  app.post('/update-team', { schema: UpdateTeam, preHandler }, async (request) =>
    org.teams.update(withSource(request), request.body),
  );
  app.post('/remove-team', { schema: RemoveTeam, preHandler }, async (request) =>
    org.teams.remove(withSource(request), request.body),
  );
  app.get('/list-teams', { schema: ListTeams, preHandler }, async (request) =>
    org.teams.list(request.auth, request.query.organizationId),
  );
  app.get('/list-user-teams', { schema: ListUserTeams, preHandler }, async (request) =>
    org.teams.listForUser(request.auth, request.query),
  );
  app.post('/add-team-member', { schema: AddTeamMember, preHandler }, async (request) =>
    org.teams.addMember(withSource(request), request.body),
  );
  app.post('/remove-team-member', { schema: RemoveTeamMember, preHandler }, async (request) =>
    org.teams.removeMember(withSource(request), request.body),
  );
}

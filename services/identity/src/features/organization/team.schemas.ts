import { Type } from 'typebox';
import { strict } from '../../shared/schemas';
import { IdField, MessageSchema, route, TeamMemberSchema, TeamNameField, TeamSchema } from './schemas';

export const CreateTeam = route(
  'Create a team (team create)',
  { body: Type.Object({ name: TeamNameField, organizationId: Type.Optional(IdField) }, strict) },
  TeamSchema,
);

export const UpdateTeam = route(
  'Rename a team (team update; spec §5: only the name applies)',
  {
    body: Type.Object(
      {
        teamId: IdField,
        data: Type.Object({ name: Type.Optional(TeamNameField), organizationId: Type.Optional(IdField) }, strict),
      },
      strict,
    ),
  },
  TeamSchema,
);

export const RemoveTeam = route(
  'Remove a team (team delete; not the last one, not your own)',
  { body: Type.Object({ teamId: IdField, organizationId: Type.Optional(IdField) }, strict) },
  MessageSchema,
);

export const ListTeams = route(
  "An organization's teams (the active one by default); needs membership",
  { querystring: Type.Object({ organizationId: Type.Optional(IdField) }) },
  Type.Array(TeamSchema),
);

export const ListUserTeams = route(
  "A user's teams (the caller's by default, in every organization they belong to); another member's need member update",
  {
    querystring: Type.Object({ userId: Type.Optional(IdField), organizationId: Type.Optional(IdField) }),
  },
  Type.Array(TeamSchema),
);

const TeamMemberBody = {
  body: Type.Object({ teamId: IdField, userId: IdField, organizationId: Type.Optional(IdField) }, strict),
};

export const AddTeamMember = route('Add a member of the organization to a team', TeamMemberBody, TeamMemberSchema);

export const RemoveTeamMember = route('Remove a user from a team', TeamMemberBody, MessageSchema);

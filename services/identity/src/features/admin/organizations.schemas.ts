import { type TSchema, Type } from 'typebox';
import { DateTime, errorResponses, NameField, strict } from '../../shared/schemas';
import {
  AddMemberBody,
  IdField,
  InvitationFields,
  InvitationSchema,
  MemberSchema,
  MessageSchema,
  OperatorOrganizationSchema,
  OrganizationSchema,
  OrganizationUpdateData,
  OrganizationWithMembersSchema,
  RoleField,
  SlugField,
  TeamMemberSchema,
  TeamNameField,
  TeamSchema,
  UserMembershipSchema,
} from '../organization';

/**
 * Operator calls on any organization, under admin/organization/: the organization routes' names and
 * shapes, with organizationId required (an operator has no active organization to fall back on).
 */
const tags = ['admin'];
/** Bodies are typed for the handlers; answers are checked by the schema only (as the organization routes do). */
const op = <B extends TSchema>(summary: string, body: B, ok: TSchema) => ({
  tags,
  summary,
  body,
  response: { 200: ok, ...errorResponses },
});
const OrganizationId = { organizationId: IdField };

export const GetOrganization = {
  tags,
  summary: 'An organization with its members, invitations, teams and team members (operators; needs organization list)',
  querystring: Type.Object(OrganizationId, strict),
  response: {
    200: OperatorOrganizationSchema,
    ...errorResponses,
  },
};

export const CreateOrganization = op(
  'Create an organization owned by userId (default: the operator); no active organization changes',
  Type.Object({ name: NameField, slug: SlugField, userId: Type.Optional(IdField) }, strict),
  OrganizationWithMembersSchema,
);

export const UpdateOrganization = op(
  "Change an organization's name, slug, logo or metadata as an operator (the owner's rules: a taken slug is refused)",
  Type.Object({ ...OrganizationId, data: OrganizationUpdateData }, strict),
  OrganizationSchema,
);

export const DeleteOrganization = op(
  'Delete an organization with its members, invitations and teams as an operator',
  Type.Object(OrganizationId, strict),
  OrganizationSchema,
);

export const InviteMember = op(
  'Invite someone by email as an operator; resend extends a pending invitation and mails it again',
  Type.Object({ ...OrganizationId, ...InvitationFields }, strict),
  InvitationSchema,
);

export const CancelInvitation = op(
  'Cancel an invitation as an operator',
  Type.Object({ invitationId: IdField }, strict),
  InvitationSchema,
);

export const AddMember = op(
  'Make an existing user a member at once, without an invitation, as an operator (better-auth addMember); ' +
    'teamId (teams on) gives them that team place too',
  AddMemberBody,
  MemberSchema,
);

export const UpdateMemberRole = op(
  "Change a member's role as an operator (the last owner stays an owner)",
  Type.Object({ ...OrganizationId, memberId: IdField, role: RoleField }, strict),
  MemberSchema,
);

export const RemoveMember = op(
  'Remove a member (by member id or email) as an operator (not the last owner)',
  Type.Object({ ...OrganizationId, memberIdOrEmail: Type.String({ minLength: 1, maxLength: 320 }) }, strict),
  Type.Object({ member: MemberSchema }),
);

export const CreateTeam = op(
  'Create a team as an operator',
  Type.Object({ ...OrganizationId, name: TeamNameField }, strict),
  TeamSchema,
);

export const UpdateTeam = op(
  'Rename a team as an operator',
  Type.Object({ ...OrganizationId, teamId: IdField, name: TeamNameField }, strict),
  TeamSchema,
);

export const RemoveTeam = op(
  'Remove a team as an operator (not the last one unless configured)',
  Type.Object({ ...OrganizationId, teamId: IdField }, strict),
  MessageSchema,
);

const TeamMemberBody = Type.Object({ ...OrganizationId, teamId: IdField, userId: IdField }, strict);
export const AddTeamMember = op(
  'Add a member of the organization to a team as an operator',
  TeamMemberBody,
  TeamMemberSchema,
);
export const RemoveTeamMember = op('Remove a user from a team as an operator', TeamMemberBody, MessageSchema);

/** A linked account as operators see it: never tokens or the password. */
export const LinkedAccountSchema = Type.Object({
  id: Type.String(),
  providerId: Type.String(),
  accountId: Type.String(),
  scopes: Type.Array(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});

const ByUserId = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) }, strict);

export const ListUserAccounts = {
  tags,
  summary: "A user's linked accounts (provider, account id, scopes); never tokens or the password",
  querystring: ByUserId,
  response: {
    200: Type.Array(LinkedAccountSchema),
    ...errorResponses,
  },
};

export const ListUserOrganizations = {
  tags,
  summary: "A user's organizations with their role in each",
  querystring: ByUserId,
  response: {
    200: Type.Array(UserMembershipSchema),
    ...errorResponses,
  },
};

import { type TSchema, Type } from 'typebox';
import { DateTime, errorResponses, Nullable } from '../../shared/schemas';

/** Models of spec §3 as better-auth's organization client reads them; they double as OpenAPI components. */
export const IdField = Type.String({ minLength: 1, maxLength: 128 });
export const SlugField = Type.String({ minLength: 1, maxLength: 128 });
export const RoleField = Type.Union([
  Type.String({ minLength: 1, maxLength: 256 }),
  Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 16 }),
]);
export const MetadataField = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 64 });
export const TeamNameField = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'spec §5: at least 1 character',
});

export const OrganizationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    logo: Nullable(Type.String()),
    metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
    requireTwoFactor: Type.Boolean({
      description: 'members without a second factor cannot act in it or keep it active (docs/two-factor.md)',
    }),
    createdAt: DateTime,
  },
  { $id: 'Organization', title: 'Organization' },
);

/** spec §3 Member's optional teamId: absent for a membership made without a team. */
const MemberTeamId = Type.String({
  description: 'The team the membership was made with (an invitation with a teamId, or the default team)',
});

/** The user's public fields a member carries (and an operator acting as a member). */
export const MemberUserSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  image: Nullable(Type.String()),
});

export const MemberSchema = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    userId: Type.String(),
    role: Type.String({ description: 'spec §3: one or several comma-separated roles' }),
    teamId: Type.Optional(MemberTeamId),
    createdAt: DateTime,
    user: Type.Optional(MemberUserSchema),
  },
  { $id: 'Member', title: 'Member' },
);

/** A member as the membership changes answer it (remove, update role, leave): without the user's fields. */
const { user: _user, ...memberFields } = MemberSchema.properties;
export const MemberWithoutUserSchema = Type.Object(memberFields);

export const InvitationSchema = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    email: Type.String(),
    role: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('accepted'),
      Type.Literal('rejected'),
      Type.Literal('canceled'),
    ]),
    teamId: Nullable(Type.String()),
    inviterId: Type.String(),
    expiresAt: DateTime,
    createdAt: DateTime,
  },
  { $id: 'Invitation', title: 'Invitation' },
);

/** An organization with its members: the create answer (spec §3). */
export const OrganizationWithMembersSchema = Type.Object(
  { ...OrganizationSchema.properties, members: Type.Array(MemberSchema) },
  { $id: 'OrganizationWithMembers', title: 'OrganizationWithMembers' },
);

export const TeamSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    organizationId: Type.String(),
    createdAt: DateTime,
    updatedAt: Nullable(DateTime),
  },
  { $id: 'Team', title: 'Team' },
);

export const TeamMemberSchema = Type.Object(
  { id: Type.String(), teamId: Type.String(), userId: Type.String(), createdAt: DateTime },
  { $id: 'TeamMember', title: 'TeamMember' },
);

/** get-full-organization (spec §3): an organization with its members, invitations and (teams enabled) teams. */
export const FullOrganizationSchema = Type.Object({
  ...OrganizationSchema.properties,
  members: Type.Array(MemberSchema),
  invitations: Type.Array(InvitationSchema),
  teams: Type.Optional(Type.Array(TeamSchema)),
});

/** The full organization as operators get it (the console's page): plus who is in which team. */
export const OperatorOrganizationSchema = Type.Object({
  ...FullOrganizationSchema.properties,
  teamMembers: Type.Array(TeamMemberSchema),
});

/** An organization as operators list it: plus how many members it has. */
export const OrganizationSummarySchema = Type.Object({
  ...OrganizationSchema.properties,
  memberCount: Type.Integer(),
});

/** One of a user's memberships, as operators see it. */
export const UserMembershipSchema = Type.Object({
  organization: OrganizationSchema,
  memberId: Type.String(),
  role: Type.String(),
  joinedAt: DateTime,
});

export const MessageSchema = Type.Object({ message: Type.String() }, { $id: 'Message', title: 'Message' });

/** A route schema: tags, summary, the request parts and a response per status. */
export function route<T extends object>(summary: string, parts: T, ok: TSchema) {
  return { tags: ['organization'], summary, ...parts, response: { 200: ok, ...errorResponses } };
}

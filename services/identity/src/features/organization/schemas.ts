import { type TSchema, Type } from 'typebox';
import { errorResponses } from '../../shared/schemas';

/** Models of spec §3 as better-auth's organization client reads them; they double as OpenAPI components. */
export const strict = { additionalProperties: false } as const;
const DateTime = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
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
    createdAt: DateTime,
  },
  { $id: 'Organization', title: 'Organization' },
);

/** spec §3 Member's optional teamId: absent for a membership made without a team. */
export const MemberTeamId = Type.String({
  description: 'The team the membership was made with (an invitation with a teamId, or the default team)',
});

const MemberUserSchema = Type.Object({
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

export const InvitationSchema = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    email: Type.String(),
    role: Type.String(),
    status: Type.Union(['pending', 'accepted', 'rejected', 'canceled'].map((s) => Type.Literal(s))),
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

export const MessageSchema = Type.Object({ message: Type.String() }, { $id: 'Message', title: 'Message' });

/** A route schema: tags, summary, the request parts and a response per status. */
export function route<T extends object>(summary: string, parts: T, ok: TSchema) {
  return { tags: ['organization'], summary, ...parts, response: { 200: ok, ...errorResponses } };
}

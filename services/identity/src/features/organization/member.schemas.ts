import { type Static, Type } from 'typebox';
import { Nullable, strict } from '../../shared/schemas';
import { IdField, MemberSchema, MemberWithoutUserSchema, RoleField, route, SlugField } from './schemas';

/**
 * Who to add, as what, and optionally to which team: better-auth's server-side addMember, which only operators
 * reach (admin/organization/add-member has this body).
 */
export const AddMemberBody = Type.Object(
  { organizationId: IdField, userId: IdField, role: RoleField, teamId: Type.Optional(IdField) },
  strict,
);

export const ListMembers = route(
  'One page of members with their users (better-auth list-members query)',
  {
    querystring: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      offset: Type.Optional(Type.Integer({ minimum: 0 })),
      sortBy: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('role')])),
      sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      filterField: Type.Optional(Type.Union([Type.Literal('role'), Type.Literal('userId'), Type.Literal('id')])),
      filterOperator: Type.Optional(Type.Union([Type.Literal('eq'), Type.Literal('ne'), Type.Literal('contains')])),
      filterValue: Type.Optional(Type.String({ maxLength: 256 })),
      organizationId: Type.Optional(IdField),
      organizationSlug: Type.Optional(SlugField),
    }),
  },
  Type.Object({ members: Type.Array(MemberSchema), total: Type.Integer() }),
);

export const GetActiveMember = route("The caller's membership in the active organization", {}, MemberSchema);

export const RemoveMember = route(
  'Remove a member by member id, or by email when the text contains an at-sign (member delete)',
  {
    body: Type.Object(
      { memberIdOrEmail: Type.String({ minLength: 1, maxLength: 254 }), organizationId: Type.Optional(IdField) },
      strict,
    ),
  },
  Type.Object({ member: MemberWithoutUserSchema }),
);

export const UpdateMemberRole = route(
  "Change a member's role (member update; nobody grants more than they hold)",
  { body: Type.Object({ role: RoleField, memberId: IdField, organizationId: Type.Optional(IdField) }, strict) },
  MemberWithoutUserSchema,
);

export const LeaveOrganization = route(
  'Leave an organization (not as its only owner)',
  { body: Type.Object({ organizationId: IdField }, strict) },
  MemberWithoutUserSchema,
);

const PermissionsField = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
  {
    maxProperties: 16,
  },
);

export const HasPermission = route(
  'Whether the caller holds permissions in an organization (the active one by default)',
  {
    body: Type.Object(
      {
        organizationId: Type.Optional(IdField),
        permissions: Type.Optional(PermissionsField),
        permission: Type.Optional(PermissionsField),
      },
      strict,
    ),
  },
  Type.Object({ error: Nullable(Type.String()), success: Type.Boolean() }),
);

export const GetActiveMemberRole = route(
  "The caller's role (or a fellow member's) in the active or named organization",
  {
    querystring: Type.Object({
      userId: Type.Optional(IdField),
      organizationId: Type.Optional(IdField),
      organizationSlug: Type.Optional(SlugField),
    }),
  },
  Type.Object({ role: Type.String() }),
);

/** What the routes take, typed by their schemas (docs/architecture.md): the services read these, never a copy. */
export type AddMemberInput = Static<typeof AddMemberBody>;
export type ListMembersQuery = Static<typeof ListMembers.querystring>;

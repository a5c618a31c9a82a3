import { type Static, Type } from 'typebox';
import { ImageField, NameField, Nullable, strict } from '../../shared/schemas';
import {
  FullOrganizationSchema,
  IdField,
  MetadataField,
  OrganizationSchema,
  OrganizationWithMembersSchema,
  route,
  SlugField,
} from './schemas';

export const CreateOrganization = route(
  'Create an organization (owner membership, default team; becomes active unless keepCurrentActiveOrganization)',
  {
    body: Type.Object(
      {
        name: NameField,
        slug: SlugField,
        userId: Type.Optional(IdField),
        logo: Type.Optional(Nullable(ImageField)),
        metadata: Type.Optional(MetadataField),
        keepCurrentActiveOrganization: Type.Optional(Type.Boolean()),
      },
      strict,
    ),
  },
  OrganizationWithMembersSchema,
);

export const CheckSlug = route(
  'Check that a slug is free',
  { body: Type.Object({ slug: SlugField }, strict) },
  Type.Object({ status: Type.Boolean() }),
);

/** What an update may change (organization update, and operators' admin/organization/update). */
export const OrganizationUpdateData = Type.Object(
  {
    name: Type.Optional(NameField),
    slug: Type.Optional(SlugField),
    logo: Type.Optional(Nullable(ImageField)),
    metadata: Type.Optional(MetadataField),
    requireTwoFactor: Type.Optional(
      Type.Boolean({
        description:
          'members without a second factor cannot act in it (its routes answer ORGANIZATION_REQUIRES_TWO_FACTOR) ' +
          'and it is cleared from their sessions; turning it on needs a second factor of the caller',
      }),
    ),
  },
  strict,
);

export const UpdateOrganization = route(
  'Update an organization (organization update)',
  {
    body: Type.Object(
      {
        data: OrganizationUpdateData,
        organizationId: Type.Optional(IdField),
      },
      strict,
    ),
  },
  OrganizationSchema,
);

export const DeleteOrganization = route(
  'Delete an organization (organization delete); members and invitations first',
  { body: Type.Object({ organizationId: IdField }, strict) },
  OrganizationSchema,
);

export const ListOrganizations = route("The user's organizations", {}, Type.Array(OrganizationSchema));

export const GetFullOrganization = route(
  'An organization with members, invitations and teams (the active one by default; null when none)',
  {
    querystring: Type.Object({
      organizationId: Type.Optional(IdField),
      organizationSlug: Type.Optional(SlugField),
      membersLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    }),
  },
  Nullable(FullOrganizationSchema),
);

export const SetActiveOrganization = route(
  "Set (or with null clear) the session's active organization",
  {
    body: Type.Object(
      { organizationId: Type.Optional(Nullable(IdField)), organizationSlug: Type.Optional(SlugField) },
      strict,
    ),
  },
  Nullable(OrganizationSchema),
);

/** What the routes take, typed by their schemas (docs/architecture.md): the services read these, never a copy. */
export type CreateInput = Static<typeof CreateOrganization.body>;
export type UpdateInput = Static<typeof UpdateOrganization.body>;

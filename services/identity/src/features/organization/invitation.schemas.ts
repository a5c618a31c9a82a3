import { type Static, Type } from 'typebox';
import { EmailField, strict } from '../../shared/schemas';
import { IdField, InvitationSchema, MemberSchema, RoleField, route } from './schemas';

const InvitationIdBody = { body: Type.Object({ invitationId: IdField }, strict) };

/** What an invitation names (invite-member, and operators' admin/organization/invite-member). */
export const InvitationFields = {
  email: EmailField,
  role: RoleField,
  resend: Type.Optional(Type.Boolean()),
  teamId: Type.Optional(IdField),
};

export const InviteMember = route(
  'Invite someone by email (invitation create); resend extends a pending invitation and mails it again',
  { body: Type.Object({ ...InvitationFields, organizationId: Type.Optional(IdField) }, strict) },
  InvitationSchema,
);

export const AcceptInvitation = route(
  'Accept an invitation: the membership, then the organization becomes active',
  InvitationIdBody,
  Type.Object({ invitation: InvitationSchema, member: MemberSchema }),
);

export const RejectInvitation = route(
  'Reject an invitation',
  InvitationIdBody,
  Type.Object({ invitation: InvitationSchema, member: Type.Null() }),
);

export const CancelInvitation = route(
  'Cancel an invitation (invitation cancel; spec §4: the status is not checked)',
  InvitationIdBody,
  InvitationSchema,
);

export const GetInvitation = route(
  'A pending invitation addressed to the caller, with organization and inviter',
  { querystring: Type.Object({ id: IdField }) },
  Type.Object({
    ...InvitationSchema.properties,
    organizationName: Type.String(),
    organizationSlug: Type.String(),
    inviterEmail: Type.String(),
  }),
);

export const ListInvitations = route(
  "An organization's invitations (the active one by default); needs membership",
  { querystring: Type.Object({ organizationId: Type.Optional(IdField) }) },
  Type.Array(InvitationSchema),
);

export const ListUserInvitations = route(
  'The live pending invitations addressed to the caller, with organization names',
  {},
  Type.Array(Type.Object({ ...InvitationSchema.properties, organizationName: Type.String() })),
);

/** What invite-member takes (operators' admin/organization/invite-member names the organization too). */
export type InviteInput = Static<typeof InviteMember.body>;

import type { Static } from 'typebox';
import { isoOf } from '../../shared/pg-time';
import type {
  FullOrganizationSchema,
  InvitationSchema,
  MemberSchema,
  MemberUserSchema,
  OperatorOrganizationSchema,
  OrganizationSchema,
  OrganizationSummarySchema,
  TeamMemberSchema,
  TeamSchema,
  UserMembershipSchema,
} from './schemas';

/**
 * What clients see of organizations, members, invitations and teams (better-auth's shapes; ISO dates): the types
 * are the response schemas' (schemas.ts), and the mappers below are the one way each row becomes one.
 */
export type OrganizationView = Static<typeof OrganizationSchema>;
export type MemberUser = Static<typeof MemberUserSchema>;
/** spec §3: `teamId` is the team the membership was made with, absent when there is none. */
export type MemberView = Static<typeof MemberSchema>;
export type InvitationView = Static<typeof InvitationSchema>;
export type InvitationStatus = InvitationView['status'];
export type TeamView = Static<typeof TeamSchema>;
export type TeamMemberView = Static<typeof TeamMemberSchema>;
export type FullOrganization = Static<typeof FullOrganizationSchema>;
export type OperatorOrganization = Static<typeof OperatorOrganizationSchema>;
export type OrganizationSummary = Static<typeof OrganizationSummarySchema>;
export type UserMembership = Static<typeof UserMembershipSchema>;

type Row = Record<string, unknown>;

function parseMetadata(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export const toOrganization = (r: Row): OrganizationView => ({
  id: r.id as string,
  name: r.name as string,
  slug: r.slug as string,
  logo: (r.logo as string | null) ?? null,
  metadata: parseMetadata(r.metadata),
  requireTwoFactor: r.require_two_factor === true,
  createdAt: isoOf(r.created_at as Date),
});

/** A member row; with the user's public fields when the row was joined with users (u_* columns). */
export function toMember(r: Row): MemberView {
  const member: MemberView = {
    id: r.id as string,
    organizationId: r.organization_id as string,
    userId: r.user_id as string,
    role: r.role as string,
    createdAt: isoOf(r.created_at as Date),
  };
  if (r.team_id) member.teamId = r.team_id as string;
  if (r.u_email !== undefined)
    member.user = {
      id: r.user_id as string,
      name: r.u_name as string,
      email: r.u_email as string,
      image: (r.u_image as string | null) ?? null,
    };
  return member;
}

export const toInvitation = (r: Row): InvitationView => ({
  id: r.id as string,
  organizationId: r.organization_id as string,
  email: r.email as string,
  role: r.role as string,
  status: r.status as InvitationStatus,
  teamId: (r.team_id as string | null) ?? null,
  inviterId: r.inviter_id as string,
  expiresAt: isoOf(r.expires_at as Date),
  createdAt: isoOf(r.created_at as Date),
});

export const toTeam = (r: Row): TeamView => ({
  id: r.id as string,
  name: r.name as string,
  organizationId: r.organization_id as string,
  createdAt: isoOf(r.created_at as Date),
  updatedAt: r.updated_at ? isoOf(r.updated_at as Date) : null,
});

export const toTeamMember = (r: Row): TeamMemberView => ({
  id: r.id as string,
  teamId: r.team_id as string,
  userId: r.user_id as string,
  createdAt: isoOf(r.created_at as Date),
});

import type { FastifyInstance } from 'fastify';
import type { FeatureRoutes, Web } from '../../http/web';
import { AcceptService } from './accept.service';
import type { OrganizationFeatureDeps } from './deps';
import { InvitationMailer } from './invitation.mailer';
import { invitationRoutes } from './invitation.routes';
import { InvitationService } from './invitation.service';
import { InvitationRepository } from './invitations.repository';
import { memberRoutes } from './member.routes';
import { MemberService } from './member.service';
import { OrganizationAccess, type OrganizationDeps } from './membership';
import { organizationRoutes } from './organization.routes';
import { OrganizationService } from './organization.service';
import { OrganizationReadService } from './read.service';
import { OrganizationRepository } from './repository';
import { SecondFactorPolicy } from './second-factor-policy';
import { requireOrganizationSession } from './session';
import { teamRoutes } from './team.routes';
import { TeamService } from './team.service';
import { TeamRepository } from './teams.repository';
import type { OrganizationServices } from './web';

export type { OrganizationFeatureDeps } from './deps';
export { InvitationFields } from './invitation.schemas';
export { AddMemberBody } from './member.schemas';
export { asOperator, type Caller, type OperatorLookup, type OrganizationAccess } from './membership';
export { OrganizationUpdateData } from './organization.schemas';
export type { OrganizationListQuery } from './repository';
export {
  IdField,
  InvitationSchema,
  MemberSchema,
  MessageSchema,
  OperatorOrganizationSchema,
  OrganizationSchema,
  OrganizationSummarySchema,
  OrganizationWithMembersSchema,
  RoleField,
  SlugField,
  TeamMemberSchema,
  TeamNameField,
  TeamSchema,
  UserMembershipSchema,
} from './schemas';
export type { PolicyClearing, SecondFactorPolicy } from './second-factor-policy';
export { requireOrganizationSession } from './session';
export type { MemberUser, MemberView, OrganizationSummary } from './views';
export type { OrganizationServices, OrganizationWeb } from './web';

/**
 * Organizations, members, invitations and teams (docs/SPEC.md §3), under `organization/`. Registered by the
 * composition root only when `features.organization` is on. Its route tables:
 *
 *   organization.routes  create · check-slug · update · delete · list · get-full-organization · set-active
 *   member.service       add (operators only, through admin/organization/add-member)
 *   member.routes        list-members · get-active-member(-role) · remove-member · update-member-role · leave · has-permission
 *   invitation.routes    invite-member · accept-invitation · reject-invitation ·  cancel-invitation · get-invitation · list-invitations · list-user-invitations
 *   team.routes          create-team · update-team · remove-team · list-teams · list-user-teams · add-team-member ·
 *                        remove-team-member
 *
 * The admin feature acts on any organization through these services as an operator (`asOperator`), and the JWT
 * feature reads a member's role through `access`.
 */
export interface OrganizationFeature extends OrganizationServices, FeatureRoutes {}

export function createOrganizationFeature(deps: OrganizationFeatureDeps): OrganizationFeature {
  const d: OrganizationDeps = {
    ...deps,
    orgs: new OrganizationRepository(deps.sql),
    invitations: new InvitationRepository(deps.sql),
    teams: new TeamRepository(deps.sql),
  };
  const access = new OrganizationAccess(d);
  const invitations = new InvitationService(d, access, new InvitationMailer(d.mail, d.config, d.orgs));
  const secondFactorPolicy = new SecondFactorPolicy(d);
  const feature: OrganizationFeature = {
    prefix: '/organization',
    access,
    organizations: new OrganizationService(d, access, secondFactorPolicy),
    reads: new OrganizationReadService(d, access),
    members: new MemberService(d, access),
    invitations,
    accept: new AcceptService(d, invitations),
    teams: new TeamService(d, access),
    secondFactorPolicy,
    routes: (app, web) => registerRoutes(app, web, feature),
  };
  return feature;
}

async function registerRoutes(app: FastifyInstance, web: Web, org: OrganizationFeature): Promise<void> {
  const opts = { ctx: web, org, session: requireOrganizationSession(web) };
  await app.register(organizationRoutes, opts);
  await app.register(memberRoutes, opts);
  await app.register(invitationRoutes, opts);
  if (web.config.organization.teams.enabled) await app.register(teamRoutes, opts);
}

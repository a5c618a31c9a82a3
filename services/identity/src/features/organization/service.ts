import { AcceptService } from './accept.service';
import { OrganizationAccess, type OrganizationDeps } from './access';
import { InvitationMailer } from './invitation.mailer';
import { InvitationService } from './invitation.service';
import { MemberService } from './member.service';
import { OrganizationService } from './organization.service';
import { OrganizationReadService } from './read.service';
import { TeamService } from './team.service';

/** The organization feature's services, wired once (context.ts). */
export interface OrganizationFeature {
  access: OrganizationAccess;
  organizations: OrganizationService;
  reads: OrganizationReadService;
  members: MemberService;
  invitations: InvitationService;
  accept: AcceptService;
  teams: TeamService;
}

export function createOrganizationFeature(d: OrganizationDeps): OrganizationFeature {
  const access = new OrganizationAccess(d);
  const invitations = new InvitationService(d, access, new InvitationMailer(d.mail, d.config, d.orgs));
  return {
    access,
    organizations: new OrganizationService(d, access),
    reads: new OrganizationReadService(d, access),
    members: new MemberService(d, access),
    invitations,
    accept: new AcceptService(d, invitations),
    teams: new TeamService(d, access),
  };
}

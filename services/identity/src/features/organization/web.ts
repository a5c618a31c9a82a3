import type { preHandlerHookHandler } from 'fastify';
import type { Web } from '../../http/web';
import type { AcceptService } from './accept.service';
import type { InvitationService } from './invitation.service';
import type { MemberService } from './member.service';
import type { OrganizationAccess } from './membership';
import type { OrganizationService } from './organization.service';
import type { OrganizationReadService } from './read.service';
import type { SecondFactorPolicy } from './second-factor-policy';
import type { TeamService } from './team.service';

/** The organization feature's services, as its factory answers them and its route tables use them. */
export interface OrganizationServices {
  access: OrganizationAccess;
  organizations: OrganizationService;
  reads: OrganizationReadService;
  members: MemberService;
  invitations: InvitationService;
  accept: AcceptService;
  teams: TeamService;
  /** `requireTwoFactor` as the sessions see it: the two-factor feature calls it when a user's second factor goes. */
  secondFactorPolicy: SecondFactorPolicy;
}

/** What every organization route table is registered with. */
export interface OrganizationWeb {
  ctx: Web;
  org: OrganizationServices;
  /** requireOrganizationSession, built once for the feature. */
  session: preHandlerHookHandler;
}

import type { Web } from '../../http/web';
import type { AdminAccess } from './access';
import type { AdminBansService } from './bans.service';
import type { AdminImpersonationService } from './impersonation.service';
import type { AdminOrganizationsService } from './organizations.service';
import type { AdminPermissionsService } from './permissions.service';
import type { AdminSessionsService } from './sessions.service';
import type { AdminStatsService } from './stats.service';
import type { AdminUserMailService } from './user-mail.service';
import type { AdminUsersService } from './users.service';

/**
 * The admin feature's route table (spec §7 admin calls, under admin/), registered only when `features.admin`
 * is on. Every route needs a session whose user holds the route's permission (spec §6); impersonation
 * sessions hold none, except to stop impersonating.
 *
 * users:         create-user, get-user, update-user, set-role, list-users, remove-user, set-user-password,
 *                reset-two-factor, list-user-passkeys
 * sessions:      list-user-sessions, revoke-user-session, revoke-user-sessions
 * bans:          ban-user, unban-user
 * impersonation: impersonate-user, stop-impersonating
 * permissions:   has-permission, list-organizations, list-roles
 * user mail:     send-reset-password, send-verification-email
 * stats:         stats (the console's dashboard)
 * organizations: list-user-accounts, list-user-organizations, and as an operator on any organization:
 *                organization/get · create · update · delete · invite-member · cancel-invitation · add-member ·
 *                update-member-role · remove-member · create-team · update-team · remove-team ·
 *                add-team-member · remove-team-member
 */
export interface AdminServices {
  access: AdminAccess;
  bans: AdminBansService;
  users: AdminUsersService;
  sessions: AdminSessionsService;
  impersonation: AdminImpersonationService;
  permissions: AdminPermissionsService;
  organizations: AdminOrganizationsService;
  userMail: AdminUserMailService;
  stats: AdminStatsService;
}

/** What the admin feature's route tables get: the shared `Web` and the feature's own services. */
export interface AdminWeb extends Web {
  admin: AdminServices;
}

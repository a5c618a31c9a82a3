import type { Config } from '../../config';
import type { FeatureRoutes } from '../../http/web';
import { AdminAccess } from './access';
import { adminBanRoutes } from './bans.routes';
import { AdminBansService } from './bans.service';
import type { AdminFeatureDeps } from './deps';
import { impersonationRoutes } from './impersonation.routes';
import { AdminImpersonationService } from './impersonation.service';
import { LapsedBans } from './lapsed-bans';
import { adminOrganizationRoutes } from './organizations.routes';
import { AdminOrganizationsService } from './organizations.service';
import type { AdminParts } from './parts';
import { adminPermissionRoutes } from './permissions.routes';
import { AdminPermissionsService } from './permissions.service';
import { AdminRepository } from './repository';
import { TrigramSample } from './search-sample';
import { adminSessionRoutes } from './sessions.routes';
import { AdminSessionsService } from './sessions.service';
import { adminStatsRoutes } from './stats.routes';
import { AdminStatsService } from './stats.service';
import { adminUserMailRoutes } from './user-mail.routes';
import { AdminUserMailService } from './user-mail.service';
import { adminUserRoutes } from './users.routes';
import { AdminUsersService } from './users.service';
import type { AdminServices } from './web';

export { AdminAccess } from './access';
export {
  ADMIN_COMMANDS,
  ADMIN_SWITCHES,
  ADMIN_USAGE,
  describeError,
  parseFlags,
  runAdminCommand,
  UsageError,
} from './cli';
export type { AdminFeatureDeps, AdminPasskey, LinkedAccount, UserPasskeys } from './deps';
export type { LapsedBans } from './lapsed-bans';
export { operatorRule } from './operator-rule';
export { readAdminPassword } from './password-input';
export { pruneSearchWords } from './search-words';

export type { AdminServices, AdminWeb } from './web';

export type AdminFeature = AdminServices & FeatureRoutes;

/**
 * The admin access model (spec §6 roles, the admin second-factor policy) alone: other features ask it (the audit
 * reads, API keys, webhooks, the organization feature's operator rule), so wiring.ts makes it before them.
 */
export function createAdminAccess(config: Config): AdminAccess {
  return new AdminAccess(config.admin, config.twoFactor.requiredForAdmins);
}

/**
 * docs/SPEC.md §4: a ban whose end has passed is cleared at the next sign-in (the sign-in seam asks it), recorded
 * as `user.ban_lapsed`. Made before the admin feature, because the sign-in seam comes first.
 */
export function createLapsedBans(deps: Pick<AdminFeatureDeps, 'sql' | 'clock' | 'audit'>): LapsedBans {
  return new LapsedBans(new AdminRepository(deps.sql, false), deps.sql, deps.clock, deps.audit);
}

export function createAdminFeature(deps: AdminFeatureDeps): AdminFeature {
  const { sql, access } = deps;
  const repo = new AdminRepository(sql, deps.config.admin.reuseListTotals);
  const trigrams = new TrigramSample(sql, () => deps.clock.now());
  const d: AdminParts = { ...deps, sql, repo, trigrams };
  const admin: AdminServices = {
    access,
    bans: new AdminBansService(d),
    users: new AdminUsersService(d),
    sessions: new AdminSessionsService(d),
    impersonation: new AdminImpersonationService(d),
    permissions: new AdminPermissionsService(d),
    organizations: new AdminOrganizationsService(d),
    userMail: new AdminUserMailService(d),
    stats: new AdminStatsService(d),
  };
  return {
    ...admin,
    async routes(app, web) {
      const ctx = { ...web, admin };
      await app.register(adminUserRoutes, ctx);
      await app.register(adminSessionRoutes, ctx);
      await app.register(adminBanRoutes, ctx);
      await app.register(impersonationRoutes, ctx);
      await app.register(adminPermissionRoutes, ctx);
      await app.register(adminOrganizationRoutes, ctx);
      await app.register(adminUserMailRoutes, ctx);
      await app.register(adminStatsRoutes, ctx);
    },
  };
}

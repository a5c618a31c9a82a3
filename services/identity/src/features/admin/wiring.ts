import type { Sql } from '../../shared/sql';
import { AdminAccess } from './access';
import { AdminBansService } from './bans.service';
import type { AdminDeps } from './deps';
import { BanPolicy, installAdminHooks, installOperatorRule } from './hooks';
import { AdminOrganizationsService } from './organizations.service';
import { AdminPermissionsService } from './permissions.service';
import { AdminRepository } from './repository';
import { TrigramSample } from './search-sample';
import { AdminSessionsService } from './sessions.service';
import { AdminUsersService } from './users.service';

export interface AdminServices {
  access: AdminAccess;
  bans: AdminBansService;
  banPolicy: BanPolicy;
  users: AdminUsersService;
  sessions: AdminSessionsService;
  permissions: AdminPermissionsService;
  organizations: AdminOrganizationsService;
}

/** Builds the admin feature and plugs it into the session feature's hook points (ban check, hidden impersonation). */
export function createAdmin(sql: Sql, deps: Omit<AdminDeps, 'sql' | 'repo' | 'access' | 'trigrams'>): AdminServices {
  const repo = new AdminRepository(sql, deps.config.admin.reuseListTotals);
  const access = new AdminAccess(deps.config.admin);
  const trigrams = new TrigramSample(sql, () => deps.clock.now());
  const d: AdminDeps = { ...deps, sql, repo, access, trigrams };
  const banPolicy = new BanPolicy(repo, deps.clock);
  installAdminHooks(deps.sessions, banPolicy);
  if (deps.organizations) installOperatorRule(deps.organizations, access, deps.accounts);
  return {
    access,
    banPolicy,
    bans: new AdminBansService(d),
    users: new AdminUsersService(d),
    sessions: new AdminSessionsService(d),
    permissions: new AdminPermissionsService(d),
    organizations: new AdminOrganizationsService(d),
  };
}

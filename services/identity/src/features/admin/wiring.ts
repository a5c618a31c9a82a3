import type { Sql } from '../../shared/sql';
import { AdminAccess } from './access';
import { AdminBansService } from './bans.service';
import type { AdminDeps } from './deps';
import { BanPolicy, installAdminHooks } from './hooks';
import { AdminPermissionsService } from './permissions.service';
import { AdminRepository } from './repository';
import { AdminSessionsService } from './sessions.service';
import { AdminUsersService } from './users.service';

export interface AdminServices {
  access: AdminAccess;
  bans: AdminBansService;
  banPolicy: BanPolicy;
  users: AdminUsersService;
  sessions: AdminSessionsService;
  permissions: AdminPermissionsService;
}

/** Builds the admin feature and plugs it into the session feature's hook points (ban check, hidden impersonation). */
export function createAdmin(sql: Sql, deps: Omit<AdminDeps, 'repo' | 'access'>): AdminServices {
  const repo = new AdminRepository(sql);
  const access = new AdminAccess(deps.config.admin);
  const d: AdminDeps = { ...deps, repo, access };
  const banPolicy = new BanPolicy(repo, deps.clock);
  installAdminHooks(deps.sessions, banPolicy);
  return {
    access,
    banPolicy,
    bans: new AdminBansService(d),
    users: new AdminUsersService(d),
    sessions: new AdminSessionsService(d),
    permissions: new AdminPermissionsService(d),
  };
}

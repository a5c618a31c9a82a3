import { fail } from '../../errors';
import { type AuditLog, SYSTEM_SOURCE, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionView, UserView } from '../../shared/views';
import type { AccountService } from '../account';
import type { OrganizationFeature } from '../organization';
import type { SessionService } from '../session';
import type { AdminAccess } from './access';
import type { AdminRepository } from './repository';

/**
 * spec §4 Ban, as a check any sign-in path runs before a session is made (email sign-in today; the OAuth
 * callback calls `check` too and redirects with the error instead). `check` trusts the caller's copy
 * of the user (every caller has just read it from PostgreSQL); a ban that commits after that read is caught by
 * `recheck`, once the session row exists.
 */
export class BanPolicy {
  constructor(
    private readonly repo: AdminRepository,
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Refuses a banned user (BANNED_USER); a ban whose expiry has passed is lifted (recorded as `user.ban_lapsed`, by
   * the system) and the user answered as now.
   */
  async check(user: UserView): Promise<UserView> {
    if (!user.banned) return user;
    const now = this.clock.now();
    if (user.banExpires && Date.parse(user.banExpires) <= now) {
      const lifted = await this.sql.transaction(async (tx) => {
        const row = await this.repo.liftLapsedBan(user.id, new Date(now), tx);
        const details = { expiredAt: user.banExpires, reason: user.banReason };
        if (row)
          await this.audit.record(tx, {
            type: 'user.ban_lapsed',
            source: SYSTEM_SOURCE,
            target: userTarget(user.id),
            details,
          });
        return row;
      });
      if (lifted) return lifted;
    }
    return fail('BANNED_USER');
  }

  /**
   * Again after the session row exists. A ban that committed after `check` read the user is seen here (the
   * session is then deleted); one that commits later deletes this session itself, as banning ends all sessions.
   */
  /** In the new session's transaction (`tx`), on its connection. */
  async recheck(userId: string, tx: Sql): Promise<void> {
    const current = await this.repo.banState(userId, tx);
    if (current?.banned && !(current.banExpires && Date.parse(current.banExpires) <= this.clock.now()))
      fail('BANNED_USER');
  }
}

/** spec §4 Impersonation: impersonation sessions are hidden from the user's session list. */
export const hideImpersonation = (sessions: SessionView[]): SessionView[] => sessions.filter((s) => !s.impersonatedBy);

/**
 * The organization feature's operator rule (organization/access.ts): an invitation an operator sent stays valid
 * while its inviter still holds the admin `organization: manage` permission, as a member's does while they are one.
 */
export function installOperatorRule(org: OrganizationFeature, access: AdminAccess, accounts: AccountService): void {
  org.access.operatorLookup = async (userId) => {
    const user = await accounts.getUser(userId);
    if (!user || !access.allows(user, { organization: ['manage'] })) return null;
    return { id: user.id, name: user.name, email: user.email, image: user.image };
  };
}

/** Plugs the admin feature into the session feature's named hook points (session.service.ts `SessionHooks`). */
export function installAdminHooks(sessions: SessionService, bans: BanPolicy): void {
  sessions.hooks.beforeCreate.push((user) => bans.check(user));
  sessions.hooks.afterCreate.push(({ user }, tx) => bans.recheck(user.id, tx));
  sessions.hooks.filterList.push(hideImpersonation);
}

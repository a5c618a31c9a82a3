import { fail } from '../../errors';
import type { SessionView, UserView } from '../../shared/views';
import type { Clock, SessionService } from '../session/session.service';
import type { AdminRepository } from './repository';

/**
 * spec §4 Ban, as a check any sign-in path runs before a session is made (email sign-in today; the OAuth
 * callback of issue 4 calls `check` too and redirects with the error instead). `check` trusts the caller's copy
 * of the user (every caller has just read it from PostgreSQL); a ban that commits after that read is caught by
 * `recheck`, once the session row exists.
 */
export class BanPolicy {
  constructor(
    private readonly repo: AdminRepository,
    private readonly clock: Clock,
  ) {}

  /** Refuses a banned user (BANNED_USER); a ban whose expiry has passed is lifted and the user answered as now. */
  async check(user: UserView): Promise<UserView> {
    if (!user.banned) return user;
    const now = this.clock.now();
    if (user.banExpires && Date.parse(user.banExpires) <= now) {
      const lifted = await this.repo.liftLapsedBan(user.id, new Date(now));
      if (lifted) return lifted;
    }
    return fail('BANNED_USER');
  }

  /**
   * Again after the session row exists. A ban that committed after `check` read the user is seen here (the
   * session is then deleted); one that commits later deletes this session itself, as banning ends all sessions.
   */
  async recheck(userId: string): Promise<void> {
    const current = await this.repo.banState(userId);
    if (current?.banned && !(current.banExpires && Date.parse(current.banExpires) <= this.clock.now()))
      fail('BANNED_USER');
  }
}

/** spec §4 Impersonation: impersonation sessions are hidden from the user's session list. */
export const hideImpersonation = (sessions: SessionView[]): SessionView[] => sessions.filter((s) => !s.impersonatedBy);

/** Plugs the admin feature into the session feature's named hook points (DESIGN §4.4). */
export function installAdminHooks(sessions: SessionService, bans: BanPolicy): void {
  sessions.hooks.beforeCreate.push((user) => bans.check(user));
  sessions.hooks.afterCreate.push(({ user }) => bans.recheck(user.id));
  sessions.hooks.filterList.push(hideImpersonation);
}

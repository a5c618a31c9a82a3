import { type AuditLog, SYSTEM_SOURCE, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { AdminRepository } from './repository';

/**
 * docs/SPEC.md §4 Ban: a ban whose end has passed is cleared at the user's next sign-in, recorded as
 * `user.ban_lapsed` by the system. The sign-in seam asks it (features/sign-in); whether a ban is in force is
 * shared/ban.ts's rule alone.
 */
export class LapsedBans {
  constructor(
    private readonly repo: AdminRepository,
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /** Clears the lapsed ban of `user` with its event; null when there was none to clear (cleared meanwhile). */
  lift(user: UserView): Promise<UserView | null> {
    return this.sql.transaction(async (tx) => {
      const row = await this.repo.liftLapsedBan(user.id, new Date(this.clock.now()), tx);
      if (row)
        await this.audit.record(tx, {
          type: 'user.ban_lapsed',
          source: SYSTEM_SOURCE,
          target: userTarget(user.id),
          details: { expiredAt: user.banExpires, reason: user.banReason },
        });
      return row;
    });
  }
}

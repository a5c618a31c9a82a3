import { isId } from '../../crypto/random';
import { fail, MESSAGES } from '../../errors';
import { type AuditSource, SYSTEM_SOURCE, userTarget } from '../../shared/audit';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AdminParts } from './parts';
import type { BanInput } from './schemas';

/** What bans use. */
export type BansDeps = Pick<AdminParts, 'sql' | 'repo' | 'access' | 'sessions' | 'config' | 'clock' | 'audit'>;

/**
 * spec §4 Ban: ban and unban. A ban is one transaction: every session of the user ends (their row locked first, so
 * no new one is inserted until the commit and a sign-in waiting on it then sees the ban; the Redis entries fenced)
 * and the ban fields are set; the Redis entries are deleted after the commit.
 */
export class AdminBansService {
  constructor(private readonly d: BansDeps) {}

  /** `auth` null: the operations CLI (the system is the actor). */
  async ban(auth: SessionWithUser | null, input: BanInput, source: AuditSource = SYSTEM_SOURCE): Promise<UserView> {
    const { access, sql, repo, sessions, config, clock, audit } = this.d;
    if (auth) access.demand(auth, { user: ['ban'] }, 'NOT_ALLOWED_TO_BAN_USERS');
    if (auth && input.userId === auth.user.id) fail('CANNOT_BAN_YOURSELF'); // spec §5
    if (!isId(input.userId)) fail('FAILED_TO_FIND_USER');
    const now = clock.now();
    const expiresInSec = input.banExpiresIn ?? config.admin.defaultBanExpiresInSec;
    const ban = {
      banned: true,
      banReason: input.banReason || config.admin.defaultBanReason || MESSAGES.DEFAULT_BAN_REASON,
      banExpires: expiresInSec ? new Date(now + expiresInSec * 1000) : null,
    };
    const { user, evict } = await sql.transaction(async (tx) => {
      const evict = await sessions.endAllForUserIn(tx, input.userId);
      const user = (await repo.setBan(input.userId, ban, new Date(now), tx)) ?? fail('FAILED_TO_FIND_USER');
      const details = { reason: ban.banReason, expiresAt: user.banExpires };
      await audit.record(tx, { type: 'admin.user.banned', source, target: userTarget(user.id), details });
      return { user, evict };
    });
    await evict();
    return user;
  }

  /** The user's ban fields are cleared; the ban and the unban stay in the audit trail. */
  async unban(auth: SessionWithUser | null, userId: string, source: AuditSource = SYSTEM_SOURCE): Promise<UserView> {
    const { access, repo, sessions, clock, audit } = this.d;
    if (auth) access.demand(auth, { user: ['ban'] }, 'NOT_ALLOWED_TO_BAN_USERS');
    if (!isId(userId)) fail('FAILED_TO_FIND_USER');
    const ban = { banned: false, banReason: null, banExpires: null };
    const now = new Date(clock.now());
    const user = await sessions.changeUser(userId, async (tx) => {
      const unbanned = await repo.setBan(userId, ban, now, tx);
      if (unbanned) await audit.record(tx, { type: 'admin.user.unbanned', source, target: userTarget(userId) });
      return unbanned;
    });
    return user ?? fail('FAILED_TO_FIND_USER');
  }
}

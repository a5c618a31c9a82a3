import { isId } from '../../crypto/random';
import { fail, MESSAGES } from '../../errors';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AdminDeps } from './deps';

export interface BanInput {
  userId: string;
  banReason?: string;
  /** Seconds (spec §5); the configured default, or no expiry, when absent. */
  banExpiresIn?: number;
}

/** spec §4 Ban: ban and unban. Banning ends every session of the user at once (PostgreSQL and the Redis cache). */
export class AdminBansService {
  constructor(private readonly d: AdminDeps) {}

  /** `auth` null: the operations CLI. */
  async ban(auth: SessionWithUser | null, input: BanInput): Promise<UserView> {
    const { access, repo, sessions, config, clock } = this.d;
    if (auth) access.demand(auth, { user: ['ban'] }, 'NOT_ALLOWED_TO_BAN_USERS');
    if (auth && input.userId === auth.user.id) fail('CANNOT_BAN_YOURSELF'); // spec §5
    if (!isId(input.userId)) fail('FAILED_TO_FIND_USER');
    const now = clock.now();
    const expiresInSec = input.banExpiresIn ?? config.admin.defaultBanExpiresInSec;
    const user = await repo.setBan(
      input.userId,
      {
        banned: true,
        banReason: input.banReason || config.admin.defaultBanReason || MESSAGES.DEFAULT_BAN_REASON,
        banExpires: expiresInSec ? new Date(now + expiresInSec * 1000) : null,
      },
      new Date(now),
    );
    if (!user) return fail('FAILED_TO_FIND_USER');
    await sessions.revokeAllForUser(input.userId);
    return user;
  }

  async unban(auth: SessionWithUser | null, userId: string): Promise<UserView> {
    const { access, repo, sessions, clock } = this.d;
    if (auth) access.demand(auth, { user: ['ban'] }, 'NOT_ALLOWED_TO_BAN_USERS');
    if (!isId(userId)) fail('FAILED_TO_FIND_USER');
    const ban = { banned: false, banReason: null, banExpires: null };
    const user = (await repo.setBan(userId, ban, new Date(clock.now()))) ?? fail('FAILED_TO_FIND_USER');
    await sessions.forgetUser(userId);
    return user;
  }
}

import type { Config } from '../../config';
import type { PasswordHasher } from '../../crypto/password';
import { randomString } from '../../crypto/random';
import { fail } from '../../errors';
import { type AuditSource, asUser, userTarget } from '../../shared/audit';
import type { BackgroundTasks } from '../../shared/background';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { SessionService } from '../session';
import { type AccountService, signedIn } from './account.service';
import type { AccountAudit } from './deps';
import type { ChangePasswordInput } from './flows.schemas';
import type { AccountMailer } from './mailer';
import type { AccountRepository } from './repository';
import type { SignInThrottle } from './sign-in-throttle';
import type { TokenRepository } from './tokens.repository';

/** spec §3 identifier of a reset token; spec §9: 24 characters. */
const RESET = 'reset-password:';
const RESET_TOKEN_LENGTH = 24;

export const RESET_REQUESTED_MESSAGE = 'If this email exists in our system, check your email for the reset link.';

/** Password reset, change and set (spec §4 Password reset, §5, §7). */
export class PasswordService {
  constructor(
    private readonly deps: {
      sql: Sql;
      repo: AccountRepository;
      tokens: TokenRepository;
      accounts: AccountService;
      sessions: SessionService;
      hasher: PasswordHasher;
      mailer: AccountMailer;
      background: BackgroundTasks;
      config: Config;
      clock: Clock;
      signInThrottle: Pick<SignInThrottle, 'clear'>;
      audit: AccountAudit;
    },
  ) {}

  /**
   * Same answer, same time, for known and unknown addresses: the lookup runs either way and the token and mail
   * of a known address are made after the answer, so timing reveals no account.
   */
  async requestReset(email: string, callbackURL: string | undefined, acceptLanguage?: string): Promise<void> {
    const { repo, background } = this.deps;
    this.assertEnabled();
    const user = await repo.findUserByEmail(email.toLowerCase());
    if (user) background.run('reset-password mail', () => this.sendResetMail(user, callbackURL, acceptLanguage));
  }

  /** An operator's request for a user they name (admin/send-reset-password): the same mail, written now. */
  async sendResetFor(user: UserView, callbackURL: string | undefined): Promise<void> {
    this.assertEnabled();
    await this.sendResetMail(user, callbackURL);
  }

  /** For `GET /reset-password/:token`: whether the link is still good (it is used up only by the reset). */
  async isResetTokenLive(token: string): Promise<boolean> {
    if (!/^[A-Za-z0-9]{24}$/.test(token)) return false;
    return (await this.deps.tokens.peek(RESET + token, new Date(this.deps.clock.now()))) !== null;
  }

  /**
   * Length first, then one transaction (spec §4): the token is used up, the new password stored, the user's other
   * reset links deleted and, when configured, every session ended (their cache entries are dropped after the commit).
   */
  async resetPassword(token: string, newPassword: string, source: AuditSource): Promise<void> {
    const { sql, repo, tokens, hasher, sessions, config, clock, audit } = this.deps;
    this.assertEnabled();
    this.deps.accounts.assertPasswordLength(newPassword);
    if (!(await this.isResetTokenLive(token))) fail('INVALID_TOKEN');
    const hash = await hasher.hash(newPassword);
    const now = new Date(clock.now());
    const revoke = config.emailAndPassword.revokeSessionsOnPasswordReset;
    const { userId, evict } = await sql.transaction(async (tx) => {
      const owner = await tokens.take(RESET + token, now, tx);
      if (!owner) return fail('INVALID_TOKEN'); // a concurrent reset used it first
      await repo.upsertPasswordHash(owner, hash, now, tx);
      await tokens.deleteForValue(owner, RESET, tx); // older links of the same user die with it
      const evict = revoke ? await sessions.endAllForUserIn(tx, owner) : async () => {};
      // The holder of the user's reset link acts as the user.
      const by = source.actor.type === 'anonymous' ? asUser(source, owner) : source;
      const details = { sessionsRevoked: revoke };
      await audit.record(tx, { type: 'user.password_reset', source: by, target: userTarget(owner), details });
      return { userId: owner, evict };
    });
    await evict();
    await this.forgetSignInFailures(userId);
  }

  /**
   * A reset proven otherwise than by a reset link (a mailed code, docs/passwordless.md): the same rules as
   * `resetPassword` (length, sessions revoked when configured, `user.password_reset`, the throttle cleared), with
   * `spend` using the proof up in the new password's transaction.
   */
  async resetProven(
    userId: string,
    newPassword: string,
    source: AuditSource,
    spend: (tx: Sql) => Promise<void>,
  ): Promise<void> {
    const { sql, repo, tokens, hasher, sessions, config, clock, audit } = this.deps;
    this.deps.accounts.assertPasswordLength(newPassword);
    const hash = await hasher.hash(newPassword);
    const now = new Date(clock.now());
    const revoke = config.emailAndPassword.revokeSessionsOnPasswordReset;
    const evict = await sql.transaction(async (tx) => {
      await spend(tx);
      await repo.upsertPasswordHash(userId, hash, now, tx);
      await tokens.deleteForValue(userId, RESET, tx);
      const evict = revoke ? await sessions.endAllForUserIn(tx, userId) : async () => {};
      const by = source.actor.type === 'anonymous' ? asUser(source, userId) : source;
      await audit.record(tx, {
        type: 'user.password_reset',
        source: by,
        target: userTarget(userId),
        details: { sessionsRevoked: revoke },
      });
      return evict;
    });
    await evict();
    await this.forgetSignInFailures(userId);
  }

  /**
   * spec §7: returns the new session token when other sessions were revoked (the current one is replaced too,
   * so a stolen cookie dies with the others), else null. The new password, the end of the old sessions and the new
   * session are one transaction: a password is never changed with the old sessions still valid.
   */
  async changePassword(
    auth: SessionWithUser,
    input: ChangePasswordInput,
    source: AuditSource,
  ): Promise<{ session: SessionWithUser | null; user: UserView }> {
    const { sql, repo, hasher, sessions, clock, audit } = this.deps;
    this.deps.accounts.assertPasswordLength(input.newPassword);
    const check = await this.deps.accounts.checkPassword(auth.user.id, input.currentPassword);
    if (!check.hasCredential) fail('CREDENTIAL_ACCOUNT_NOT_FOUND');
    if (!check.ok) fail('INVALID_PASSWORD');
    const hash = await hasher.hash(input.newPassword);
    const now = new Date(clock.now());
    const revoke = input.revokeOtherSessions === true;
    const changed = { type: 'user.password_changed', source, target: userTarget(auth.user.id) } as const;
    if (!revoke) {
      await sql.transaction(async (tx) => {
        await repo.updatePasswordHash(auth.user.id, hash, now, tx);
        await audit.record(tx, { ...changed, details: { otherSessionsRevoked: false } });
      });
      return { session: null, user: auth.user };
    }
    const { session, evict } = await sql.transaction(async (tx) => {
      await repo.updatePasswordHash(auth.user.id, hash, now, tx);
      await audit.record(tx, { ...changed, details: { otherSessionsRevoked: true } });
      // The new session first: its hooks (the ban check) may write the user's row, which endAllForUserIn then locks.
      const session = await sessions.create(
        {
          user: auth.user,
          rememberMe: auth.session.rememberMe,
          ...source,
          signIn: { method: 'password-change', secondFactor: null },
          event: signedIn(source, 'password-change'),
        },
        tx,
      );
      const evict = await sessions.endAllForUserIn(tx, auth.user.id, session.session.token);
      return { session, evict };
    });
    await evict();
    return { session, user: auth.user };
  }

  /** spec §2 set-password (server only): a first password for a user who has none. */
  async setPassword(userId: string, newPassword: string, source: AuditSource): Promise<void> {
    const { sql, repo, hasher, clock, audit } = this.deps;
    this.deps.accounts.assertPasswordLength(newPassword);
    if (await repo.findPasswordHash(userId)) fail('USER_ALREADY_HAS_PASSWORD');
    const hash = await hasher.hash(newPassword);
    const created = await sql.transaction(async (tx) => {
      if (!(await repo.insertCredential(userId, hash, new Date(clock.now()), tx))) return false;
      await audit.record(tx, { type: 'user.password_set', source, target: userTarget(userId) });
      return true;
    });
    if (!created) fail('USER_ALREADY_HAS_PASSWORD');
    await this.forgetSignInFailures(userId);
  }

  /** An operator sets a user's password (admin set-user-password): replaces or creates the credential. */
  async forcePassword(userId: string, newPassword: string, source: AuditSource): Promise<void> {
    const { sql, repo, hasher, clock, audit } = this.deps;
    this.deps.accounts.assertPasswordLength(newPassword);
    const hash = await hasher.hash(newPassword);
    await sql.transaction(async (tx) => {
      await repo.upsertPasswordHash(userId, hash, new Date(clock.now()), tx);
      await audit.record(tx, { type: 'admin.user.password_set', source, target: userTarget(userId) });
    });
    await this.forgetSignInFailures(userId);
  }

  /**
   * A new password ends the per-account sign-in throttle (docs/security.md, per-account failure counter): the
   * guesses it counted were at the old password, and the owner who just set a new one must get in at once.
   */
  private async forgetSignInFailures(userId: string): Promise<void> {
    const user = await this.deps.repo.findUserById(userId);
    if (user) await this.deps.signInThrottle.clear(user.email);
  }

  /** The token and its mail in one transaction: a committed token's mail is sent (unless the cap drops it). */
  private async sendResetMail(user: UserView, callbackURL: string | undefined, acceptLanguage?: string): Promise<void> {
    const { sql, tokens, mailer, config, clock } = this.deps;
    const token = randomString(RESET_TOKEN_LENGTH);
    const now = clock.now();
    const expiresAt = new Date(now + config.emailAndPassword.resetPasswordTokenExpiresInSec * 1000);
    const path = `/reset-password/${token}`;
    const url = mailer.link(path, { callbackURL: callbackURL || mailer.landing(path) });
    await sql.transaction(async (tx) => {
      await tokens.put(RESET + token, user.id, expiresAt, new Date(now), tx);
      await mailer.send(token, user, acceptLanguage, { kind: 'reset-password', url }, tx);
    });
  }

  private assertEnabled(): void {
    if (!this.deps.config.emailAndPassword.enabled) fail('RESET_PASSWORD_DISABLED');
  }
}

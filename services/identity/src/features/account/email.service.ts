import type { Config } from '../../config';
import type { VerificationTokens } from '../../crypto/verification-token';
import { fail } from '../../errors';
import { type AuditSource, asUser, userTarget } from '../../shared/audit';
import type { BackgroundTasks } from '../../shared/background';
import type { Clock } from '../../shared/clock';
import type { ProvenIdentity } from '../../shared/sign-in';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { SessionService } from '../session';
import type { AccountAudit } from './deps';
import type { AccountMailer } from './mailer';
import type { AccountRepository } from './repository';
import type { TokenRepository } from './tokens.repository';

/** A used verification token's id (spec §3 verification value): each link works once. */
const USED = 'used-verification:';

export type VerifyEmailError = 'token_expired' | 'invalid_token' | 'user_not_found' | 'unauthorized';
export type VerifyEmailResult =
  | { ok: true; user: UserView; signIn: ProvenIdentity | null }
  | { ok: false; error: VerifyEmailError };

/** Email verification and change of email (spec §4 Email verification, §5 account rules). */
export class EmailService {
  constructor(
    private readonly deps: {
      sql: Sql;
      repo: AccountRepository;
      tokens: TokenRepository;
      jwt: VerificationTokens;
      sessions: SessionService;
      mailer: AccountMailer;
      background: BackgroundTasks;
      config: Config;
      clock: Clock;
      audit: AccountAudit;
    },
  ) {}

  /**
   * spec §5: only to an unverified email, only the signed-in user's own. Without a session the answer is the
   * same whether or not the address has an account (the mail is made after the answer).
   */
  async sendVerification(email: string, callbackURL: string | undefined, auth: SessionWithUser | null, lang?: string) {
    const address = email.toLowerCase();
    if (auth) {
      if (auth.user.email !== address) fail('EMAIL_MISMATCH');
      if (auth.user.emailVerified) fail('EMAIL_ALREADY_VERIFIED');
      await this.sendVerificationMail(auth.user, callbackURL, lang);
      return;
    }
    const user = await this.deps.repo.findUserByEmail(address);
    if (user && !user.emailVerified)
      this.deps.background.run('verification mail', () => this.sendVerificationMail(user, callbackURL, lang));
  }

  /**
   * The verification link for `user` (spec §2: /verify-email?token&callbackURL), mailed in their language;
   * written in `tx` when the mail follows a change made there (a new address).
   */
  async sendVerificationMail(user: UserView, callbackURL: string | undefined, lang?: string, tx?: Sql) {
    const { jwt, mailer, config } = this.deps;
    const { token } = await jwt.sign(user.email, config.emailVerification.expiresInSec);
    const url = mailer.tokenLink('/verify-email', token, callbackURL);
    await mailer.send(token, user, lang, { kind: 'verify-email', url }, tx);
  }

  /**
   * spec §4: a valid token verifies the email, or (change of email) moves the account to the new address. The
   * holder of the link acts as its user (`source` names the session's user when there is one).
   */
  async verify(token: string, auth: SessionWithUser | null, source: AuditSource, lang?: string) {
    const { repo, jwt, audit } = this.deps;
    const checked = await jwt.verify(token);
    if (!checked.ok) return checked;
    const { claims } = checked;
    const user = await repo.findUserByEmail(claims.email);
    if (!user) return { ok: false, error: 'user_not_found' } satisfies VerifyEmailResult;
    if (claims.updateTo) {
      // The confirmation went to the old address; only that user's own session may complete the move.
      if (!auth || auth.user.id !== user.id) return { ok: false, error: 'unauthorized' } satisfies VerifyEmailResult;
      return this.completeChange(user, claims.updateTo, claims.jti, source, lang);
    }
    const by = source.actor.type === 'anonymous' ? asUser(source, user.id) : source;
    const verified = await this.useOnce(user.id, claims.jti, async (tx, now) => {
      const marked = await repo.markEmailVerified(user.id, user.email, now, tx);
      if (marked)
        await audit.record(tx, {
          type: 'user.email_verified',
          source: by,
          target: userTarget(user.id),
          details: { email: user.email },
        });
      return marked;
    });
    if (!verified) return { ok: false, error: 'invalid_token' } satisfies VerifyEmailResult;
    const signIn = this.signInAfterVerification(verified, auth, { method: 'email-verification' });
    return { ok: true, user: verified, signIn } satisfies VerifyEmailResult;
  }

  /**
   * The sign-in after a proven address (emailVerification.autoSignInAfterVerification), whatever proved it (the
   * verification link, a mailed code): the identity for the sign-in seam, which makes the session (the second factor
   * is still asked of a user who has one). None when the setting is off, or when the caller is signed in as that
   * user already.
   */
  signInAfterVerification(
    user: UserView,
    auth: SessionWithUser | null,
    proof: Pick<ProvenIdentity, 'method' | 'details'>,
  ): ProvenIdentity | null {
    if (!this.deps.config.emailVerification.autoSignInAfterVerification || auth?.user.id === user.id) return null;
    return { user, rememberMe: true, secondFactor: 'ask', ...proof };
  }

  /**
   * spec §4 change of email: verified → confirm at the old address; unverified → at once, then verify. The move and
   * the fence of the user's cached sessions are one transaction (a cached session never shows the old address once
   * it committed); the verification mail is written to the outbox in the same transaction, and so is the event.
   */
  async changeEmail(
    auth: SessionWithUser,
    newEmail: string,
    callbackURL: string | undefined,
    source: AuditSource,
    lang?: string,
  ) {
    const { sql, repo, jwt, mailer, config, clock, audit } = this.deps;
    const { address, confirmFromOld } = this.checkChange(auth.user, newEmail);
    if (await repo.findUserByEmail(address)) fail('COULDNT_UPDATE_EMAIL');
    const target = userTarget(auth.user.id);
    if (confirmFromOld) {
      const { token } = await jwt.sign(auth.user.email, config.emailVerification.expiresInSec, address);
      // The confirmation's own landing page (the pages' email-changed), not the verification's.
      const url = mailer.tokenLink('/verify-email', token, callbackURL || mailer.landing('change-email'));
      await sql.transaction(async (tx) => {
        await mailer.send(token, auth.user, lang, { kind: 'change-email', url, newEmail: address }, tx);
        await audit.record(tx, { type: 'user.email_change_requested', source, target, details: { to: address } });
      });
      return;
    }
    // The move, the fence of the user's cached sessions and the verification mail to the new address: all or none.
    const now = new Date(clock.now());
    const moved = await this.deps.sessions.changeUser(auth.user.id, async (tx) => {
      const changed = await repo.changeEmail(auth.user.id, address, now, tx);
      if (changed) {
        await this.sendVerificationMail(changed, callbackURL, lang, tx);
        const details = { from: auth.user.email, to: address, confirmed: false };
        await audit.record(tx, { type: 'user.email_changed', source, target, details });
      }
      return changed;
    });
    if (!moved) return fail('COULDNT_UPDATE_EMAIL');
  }

  /**
   * spec §4–5, whatever carries a change of email (the link flow above, a code mailed to the new address): the change
   * of email is on and the new address is not the current one (EMAIL_IS_THE_SAME). Answers the address as stored and
   * whether the current address must confirm the change first (it is verified: spec §4 asks the old address).
   */
  checkChange(user: UserView, newEmail: string): { address: string; confirmFromOld: boolean } {
    if (!this.deps.config.changeEmail.enabled) fail('CHANGE_EMAIL_DISABLED');
    const address = newEmail.toLowerCase();
    if (address === user.email) fail('EMAIL_IS_THE_SAME');
    return { address, confirmFromOld: user.emailVerified };
  }

  /**
   * A change of email whose new address is proven (a code mailed there, `method`), the current address having
   * confirmed it when `checkChange` asked: the rules again, then the move at once with the address verified, the
   * user's cached sessions fenced, the proof spent (`spend`) and `user.email_changed`, in one transaction. An address
   * taken (also by a sign-up meanwhile) is COULDNT_UPDATE_EMAIL, and nothing is spent.
   */
  async changeProven(
    user: UserView,
    newEmail: string,
    method: string,
    source: AuditSource,
    spend: (tx: Sql) => Promise<void>,
  ): Promise<UserView> {
    const { repo, clock, audit, sessions } = this.deps;
    const { address, confirmFromOld } = this.checkChange(user, newEmail);
    if (await repo.findUserByEmail(address)) fail('COULDNT_UPDATE_EMAIL');
    const now = new Date(clock.now());
    return sessions.changeUser(user.id, async (tx) => {
      const moved = (await repo.changeEmail(user.id, address, now, tx, true)) ?? fail('COULDNT_UPDATE_EMAIL');
      await spend(tx);
      const details = { from: user.email, to: address, confirmed: confirmFromOld, method };
      await audit.record(tx, { type: 'user.email_changed', source, target: userTarget(user.id), details });
      return moved;
    });
  }

  private async completeChange(user: UserView, updateTo: string, jti: string, source: AuditSource, lang?: string) {
    const { repo, audit } = this.deps;
    const moved = await this.useOnce(user.id, jti, async (tx, now) => {
      const changed = await repo.changeEmail(user.id, updateTo, now, tx);
      if (changed) {
        await this.sendVerificationMail(changed, undefined, lang, tx); // with the move, or not at all
        const details = { from: user.email, to: updateTo, confirmed: true };
        await audit.record(tx, { type: 'user.email_changed', source, target: userTarget(user.id), details });
      }
      return changed;
    });
    if (!moved) return { ok: false, error: 'invalid_token' } satisfies VerifyEmailResult;
    return { ok: true, user: moved, signIn: null } satisfies VerifyEmailResult;
  }

  /**
   * Records the token id and applies `change` to the user `userId` in one transaction (their cached sessions fenced
   * in it, dropped after the commit); null when the id was used before.
   */
  private async useOnce<T>(
    userId: string,
    jti: string,
    change: (tx: Sql, now: Date) => Promise<T | null>,
  ): Promise<T | null> {
    const { tokens, config, clock, sessions } = this.deps;
    const now = new Date(clock.now());
    const keepUntil = new Date(now.getTime() + config.emailVerification.expiresInSec * 1000);
    try {
      return await sessions.changeUser(userId, async (tx) => {
        await tokens.put(USED + jti, 'used', keepUntil, now, tx);
        const result = await change(tx, now);
        if (!result) throw new NothingChanged();
        return result;
      });
    } catch (error) {
      if (error instanceof NothingChanged || isUniqueViolation(error)) return null;
      throw error;
    }
  }
}

class NothingChanged extends Error {}

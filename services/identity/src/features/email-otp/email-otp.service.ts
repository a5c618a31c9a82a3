import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { EmailOtpConfig } from '../../config';
import { randomString } from '../../crypto/random';
import { safeEqual } from '../../crypto/safe-equal';
import { fail } from '../../errors';
import { mailLanguage } from '../../mail/language';
import { idFor } from '../../mail/queue';
import { type AuditSource, userTarget } from '../../shared/audit';
import { normalizeEmail } from '../../shared/email';
import type { ProvenIdentity } from '../../shared/sign-in';
import { type Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { EmailOtpFeatureDeps } from './deps';
import type { GuessBudget, GuessVerdict } from './guess-budget';
import { type CodeType, codeKey, type EmailOtpRepository } from './repository';

/** A right code, not used up yet: the seam (or the change it proves) spends it in its transaction. */
interface Checked {
  user: UserView | null;
  spend: (tx: Sql) => Promise<void>;
  /** Takes back the try this check counted on the code (a check that uses nothing up). */
  giveBack: () => Promise<void>;
}

/**
 * One-time codes by mail (docs/passwordless.md): six digits, stored as a keyed hash with a short life, one live code
 * per address and kind (a new one replaces it). Each try is counted on the code first (three by default, then it is
 * refused until it expires) and taken from the account's budget of wrong codes before the code is compared. An address that gets no
 * mail (unknown, no sign-up) still gets a code no one can know, so every answer after the send is the same as for a
 * known one.
 */
export class EmailOtpService {
  constructor(
    private readonly d: EmailOtpFeatureDeps & {
      repo: EmailOtpRepository;
      budget: GuessBudget;
      settings: EmailOtpConfig;
      hmacKey: Buffer;
    },
  ) {}

  /**
   * Mails a code of `type` to a known address (a sign-in code to any, when codes sign up); always the same answer,
   * in the same time: the request looks the address up either way, and the code (with its mail, or a code no one
   * can know) is stored after the answer, so the work a known address costs more tells nothing.
   */
  async send(rawEmail: string, type: CodeType, lang: string | undefined): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const user = await this.d.accounts.getUserByEmail(email);
    const mailed = user !== null || (type === 'sign-in' && this.d.settings.allowSignUp);
    const mail = mailed ? ({ kind: 'email-otp', to: email, user, lang } as const) : null;
    this.d.background.run('email-otp code', () => this.issue({ type, email }, mail));
  }

  /**
   * better-auth's request-email-change, for the signed-in user of `auth`: a code mailed to the new address. The
   * account's change-of-email rules decide first (on, not the same address); when they ask the current address to
   * confirm (it is verified), `otp` must be an email-verification code mailed to it (better-auth's
   * verifyCurrentEmail), used up with this request. A taken new address gets a code no one can know and no mail:
   * the same answer.
   */
  async requestEmailChange(
    auth: SessionWithUser,
    rawNewEmail: string,
    otp: string | undefined,
    source: AuditSource,
    lang: string | undefined,
  ): Promise<void> {
    const { user } = auth;
    const { address, confirmFromOld } = this.changeRules(user, rawNewEmail);
    let confirmed: ((tx: Sql) => Promise<void>) | undefined;
    if (confirmFromOld) {
      if (!otp) fail('CURRENT_EMAIL_OTP_REQUIRED');
      ({ spend: confirmed } = await this.check('email-verification', user.email, otp, source, { signingIn: false }));
    }
    const taken = (await this.d.accounts.getUserByEmail(address)) !== null;
    const mail = taken ? null : ({ kind: 'change-email-otp', to: address, user, lang } as const);
    await this.issue({ type: 'change-email', email: user.email, to: address }, mail, confirmed);
  }

  /**
   * better-auth's change-email: the code mailed to the new address moves the signed-in user's account there, through
   * the account's change-of-email rules (the address verified, the code spent with the move). Answers the user as
   * now.
   */
  async changeEmail(auth: SessionWithUser, rawNewEmail: string, otp: string, source: AuditSource): Promise<UserView> {
    const { user } = auth;
    const { address } = this.changeRules(user, rawNewEmail);
    const checked = await this.check('change-email', user.email, otp, source, { signingIn: false, to: address });
    return this.d.emails.changeProven(user, address, 'email-otp', source, checked.spend);
  }

  /** A sign-in code: the identity it proves, for the seam (which spends the code in the session's transaction). */
  async proveSignIn(
    rawEmail: string,
    otp: string,
    profile: { name?: string; image?: string },
    source: AuditSource,
  ): Promise<ProvenIdentity> {
    const email = normalizeEmail(rawEmail);
    const checked = await this.check('sign-in', email, otp, source);
    let user = checked.user;
    if (!user) {
      if (!this.d.settings.allowSignUp) fail('INVALID_OTP');
      ({ user } = await this.d.accounts.registerVerified(
        { email, name: profile.name ?? '', image: profile.image ?? null },
        'email-otp',
        source,
      ));
    } else {
      user = await this.d.signIn.checkBan(user);
      if (!user.emailVerified) user = await this.d.accounts.claimAddress(user, 'email-otp', source);
    }
    return { user, method: 'email-otp', rememberMe: true, secondFactor: 'ask', spend: checked.spend };
  }

  /**
   * An email-verification code: the address is verified, and the code used, in one transaction. Then, when the
   * service signs in after a verification (the account feature's rule, `auth` the caller's session), the identity
   * the route hands to the sign-in seam.
   */
  async verifyEmail(
    rawEmail: string,
    otp: string,
    auth: SessionWithUser | null,
    source: AuditSource,
  ): Promise<{ user: UserView; signIn: ProvenIdentity | null }> {
    const email = normalizeEmail(rawEmail);
    const checked = await this.check('email-verification', email, otp, source);
    if (!checked.user) return fail('INVALID_OTP');
    const found = checked.user;
    const now = this.now();
    await this.d.sessions.changeUser(found.id, async (tx) => {
      await checked.spend(tx);
      await this.d.accounts.verifyAddressIn(tx, found, 'email-otp', source);
    });
    const user = {
      ...found,
      emailVerified: true,
      updatedAt: found.emailVerified ? found.updatedAt : now.toISOString(),
    };
    const details = { type: 'email-verification' };
    return { user, signIn: this.d.emails.signInAfterVerification(user, auth, { method: 'email-otp', details }) };
  }

  /**
   * better-auth's check-verification-otp: whether `otp` is the live code of `type` for the address, using nothing up.
   * It is a try like any other (counted on the code and taken from the account's budget before the compare, so
   * parallel checks get no more tries than the limit); a right one gives its try on the code back. A right code
   * of an address with no account (a sign-up code) answers USER_NOT_FOUND, 400 as better-auth answers it.
   */
  async checkOnly(rawEmail: string, type: CodeType, otp: string, source: AuditSource): Promise<void> {
    const checked = await this.check(type, normalizeEmail(rawEmail), otp, source);
    await checked.giveBack();
    if (!checked.user) fail('USER_NOT_FOUND', undefined, 400);
  }

  /** A reset code and the new password: the password's rules, then the change with the code used in it. */
  async resetPassword(rawEmail: string, otp: string, password: string, source: AuditSource): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const checked = await this.check('forget-password', email, otp, source);
    if (!checked.user) return fail('INVALID_OTP');
    await this.d.passwords.resetProven(checked.user.id, password, source, checked.spend);
  }

  /** A change of email by code: off unless EMAIL_OTP_CHANGE_EMAIL (better-auth's changeEmail.enabled), then the account's rules. */
  private changeRules(user: UserView, rawNewEmail: string) {
    if (!this.d.settings.changeEmail) fail('CHANGE_EMAIL_DISABLED');
    return this.d.emails.checkChange(user, rawNewEmail);
  }

  /**
   * Stores a new code for `code` (replacing the live one and its tries) and, in the same transaction, mails it
   * (`mail`; none: a code no one can know, so every later answer is a known address's) and does `alsoIn`.
   */
  private async issue(
    code: CodeOf,
    mail: {
      kind: 'email-otp' | 'change-email-otp';
      to: string;
      user: UserView | null;
      lang: string | undefined;
    } | null,
    alsoIn?: (tx: Sql) => Promise<void>,
  ): Promise<void> {
    const digits = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const hash = this.hash(code, mail ? digits : randomBytes(32).toString('hex'));
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.d.settings.ttlSec * 1000);
    const { config } = this.d;
    await this.d.sql.transaction(async (tx) => {
      await this.d.repo.put(keyOf(code), hash, expiresAt, now, tx);
      await alsoIn?.(tx);
      if (!mail) return;
      await this.d.mail.write(
        idFor(mail.kind, randomString(32)),
        {
          kind: mail.kind,
          to: mail.to,
          name: mail.user?.name ?? '',
          language: mailLanguage(mail.user?.language, mail.lang),
          code: digits,
          url: config.hostedPages.enabled
            ? new URL(config.hostedPages.path, config.publicUrl).toString()
            : config.publicUrl,
        },
        tx,
      );
    });
  }

  /**
   * Counts a try on the code of `type` for `email` (and, a change of email, its new address `to`), then gone past
   * the limit; takes it from the budget of `email`'s account, and compares. A wrong code given to sign in, verify or
   * reset (`signingIn`, the default) is `user.sign_in_failed`; one given with a session is not a failed sign-in. A
   * lock the try starts is recorded either way. A right one answers the user (null: no account) and how to spend
   * the code.
   */
  private async check(
    type: CodeType,
    email: string,
    otp: string,
    source: AuditSource,
    { signingIn = true, to }: { signingIn?: boolean; to?: string } = {},
  ): Promise<Checked> {
    const { repo, settings } = this.d;
    const code: CodeOf = { type, email, to };
    const key = keyOf(code);
    const now = this.now();
    const stored = await repo.countTry(key, now);
    if (!stored) {
      if (await repo.dropExpired(key, now)) fail('OTP_EXPIRED');
      fail('INVALID_OTP');
    }
    // Past the limit the code is gone for good (refused until it expires; the sweep removes it). Not deleted here:
    // a parallel right try counted within the limit must still be able to spend it.
    if (stored.attempts > settings.maxAttempts) fail('TOO_MANY_ATTEMPTS');
    const user = await this.d.accounts.getUserByEmail(email);
    const given = this.hash(code, otp.trim());
    const verdict = await this.d.budget.spend(
      { email, userId: user?.id ?? null, twoFactor: user?.twoFactorEnabled ?? false },
      async () => safeEqual(given, stored.hash),
    );
    if (!verdict.right) {
      await this.recordWrong(type, email, user, verdict, signingIn ? anonymous(source) : source, signingIn);
      fail('INVALID_OTP');
    }
    return {
      user,
      spend: async (tx) => {
        if (!(await repo.take(key, stored.hash, now, tx))) fail('INVALID_OTP');
      },
      giveBack: () => repo.giveBackTry(key, stored.hash),
    };
  }

  /**
   * A wrong code: a failed sign-in (`signingIn`: given without a session, by an anonymous caller, the address as
   * target), and the lock when this try started it, once, by `by` (docs/audit.md): the second factor's own lock is
   * `user.two_factor_locked` (the user as target), as a wrong TOTP code's is; the address's is
   * `user.email_otp_locked` (the address's digest as target).
   */
  private async recordWrong(
    type: CodeType,
    email: string,
    user: UserView | null,
    verdict: Extract<GuessVerdict, { right: false }>,
    by: AuditSource,
    signingIn: boolean,
  ): Promise<void> {
    const { audit, sql } = this.d;
    const details = { method: 'email-otp', type };
    if (signingIn)
      await audit.record(sql, { type: 'user.sign_in_failed', source: by, target: audit.emailTarget(email), details });
    if (!verdict.lockStarted) return;
    const ownLock = verdict.budget === 'second-factor' && user;
    await audit.record(sql, {
      type: ownLock ? 'user.two_factor_locked' : 'user.email_otp_locked',
      source: by,
      target: ownLock ? userTarget(user.id) : audit.emailTarget(email),
      details: { failures: verdict.failures, lockedUntil: verdict.lockStarted.toISOString(), ...details },
    });
  }

  /** The keyed hash of `digits` as the code `code`: bound to its kind, its address (and new address) and the key. */
  private hash(code: CodeOf, digits: string): string {
    return createHmac('sha256', this.d.hmacKey)
      .update(`${code.type}\n${boundOf(code)}\n${digits}`)
      .digest('base64url');
  }

  private now(): Date {
    return new Date(this.d.clock.now());
  }
}

/** Which code: its kind and address, and for a change of email the new address (the code is for that move only). */
interface CodeOf {
  type: CodeType;
  email: string;
  to?: string;
}

/** The address a code is bound to: its own, and for a change of email the new one too. */
const boundOf = (code: CodeOf) => (code.to === undefined ? code.email : `${code.email}\n${code.to}`);

const keyOf = (code: CodeOf) => codeKey(code.type, boundOf(code));

const anonymous = (source: AuditSource): AuditSource => ({ ...source, actor: { type: 'anonymous' } });

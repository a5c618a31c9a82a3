import { createHmac } from 'node:crypto';
import type { TwoFactorConfig } from '../../config';
import { newId, randomString } from '../../crypto/random';
import { type Sealer, unreadableSealed } from '../../crypto/sealed';
import { matchTotp, newTotpSecret, totpUri } from '../../crypto/totp';
import { fail, failLogged } from '../../errors';
import { mailLanguage } from '../../mail/language';
import type { MailOutbox } from '../../mail/mail-outbox';
import { type AuditEventType, type AuditSource, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { ProvenIdentity, SecondFactorGate } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { SessionService } from '../session';
import { AttemptBudget, type CodeVerdict } from './attempt-budget';
import type { OrganizationPolicy, PasswordCheck, TwoFactorAudit } from './deps';
import type { TwoFactorRepository, TwoFactorRow } from './repository';

/** The factors a code can be: an authenticator app's TOTP code, or one of the backup codes. */
export type Factor = 'totp' | 'backup-code';

/**
 * Backup codes are drawn from lower-case letters and digits without the look-alikes (l, i, o, 1, 0): read off paper
 * or a screen, nothing can be mistaken for another character, and they are accepted in any case.
 */
const BACKUP_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** What a code can be once typed: today's codes, or earlier ones (letters of both cases and every digit). */
const BACKUP_CODE = /^[A-Za-z0-9]{10}$/;
/** A backup code as the user types it: dashes and spaces ignored. */
const normalizeBackupCode = (code: string): string => code.replace(/[\s-]/g, '');

export interface TwoFactorStatus {
  enabled: boolean;
  totp: boolean;
  backupCodesRemaining: number;
  /** Passkeys the user has (docs/two-factor.md "Passkeys"): each counts as a second factor for the policies. */
  passkeys: number;
}

/**
 * Another kind of second factor an operator's reset removes too (the passkey feature's, given in wiring.ts), in
 * the reset's transaction. Answers how many it removed.
 */
export interface ResettableFactor {
  /** The audit detail's name for the count: `<name>Removed`. */
  name: string;
  removeAll(userId: string, tx: Sql): Promise<number>;
}

/**
 * The second factor (docs/two-factor.md): TOTP enrolment and removal, backup codes, and the sign-in step that
 * follows a correct password. The TOTP secret is sealed at rest (bound to its user); backup codes are stored as
 * keyed hashes; a code's time step is accepted once; wrong codes are counted per pending sign-in and, before any
 * code of a confirmed factor is checked, taken from the account's budget (attempt-budget.ts).
 */
export class TwoFactorService {
  /**
   * The account's budget of wrong codes (TWO_FACTOR_LOCKOUT_FAILURES, TWO_FACTOR_LOCKOUT_SEC), shared by every
   * route and kind of code that checks a confirmed factor.
   */
  readonly attempts: AttemptBudget;

  constructor(
    private readonly deps: {
      sql: Sql;
      repo: TwoFactorRepository;
      passwords: PasswordCheck;
      sessions: SessionService;
      organizations: OrganizationPolicy;
      sealer: Sealer;
      mail: MailOutbox;
      config: TwoFactorConfig;
      publicUrl: string;
      clock: Clock;
      audit: TwoFactorAudit;
      /** The other second factors an operator's reset removes too (passkeys), in its transaction. */
      resettable: readonly ResettableFactor[];
    },
  ) {
    const { lockoutFailures: max, lockoutSec: lockSec } = deps.config;
    this.attempts = new AttemptBudget(deps.repo, { max, lockSec }, () => this.now());
  }

  // Enrolment, with a session

  /** Starts enrolling: a new secret (unconfirmed until a first code) and a set of backup codes. */
  async enable(user: UserView, password: string, issuer: string | undefined) {
    await this.assertPassword(user.id, password);
    const secret = newTotpSecret();
    const codes = this.newBackupCodes();
    const now = this.now();
    const started = await this.deps.repo.transaction((tx) =>
      this.deps.repo.startEnrolment(
        user.id,
        this.deps.sealer.seal(secret, sealContext(user.id)),
        codes.map((c) => hashCode(secret, user.id, c)),
        now,
        tx,
      ),
    );
    if (!started) fail('TOTP_ALREADY_ENABLED');
    return {
      method: 'totp' as const,
      totpURI: totpUri(secret, issuer ?? this.deps.config.issuer, user.email),
      backupCodes: codes,
    };
  }

  async totpUri(user: UserView, password: string): Promise<string> {
    const row = await this.deps.repo.find(user.id);
    if (!row) fail('TOTP_NOT_ENABLED');
    await this.assertPassword(user.id, password);
    return totpUri(this.secretOf(row), this.deps.config.issuer, user.email);
  }

  /**
   * A code from the signed-in user: the first one confirms the enrolment (the second factor is on from then, with
   * its audit event and notice). Answers the user as it now is. Once the factor is confirmed, a code checked here
   * takes from the account's budget as at sign-in (a session is no licence to guess); while enrolling it does not:
   * the caller was just shown the secret, and a wrong first code tests no factor that guards anything.
   */
  async verifyTotpSignedIn(user: UserView, code: string, source: AuditSource, lang?: string): Promise<UserView> {
    const row = await this.deps.repo.find(user.id);
    if (!row) fail('TOTP_NOT_ENABLED');
    const secret = this.secretOf(row);
    if (row.verified) {
      const verdict = await this.attempts.spend(user.id, () => this.useTotp(row, secret, code));
      if (!verdict.right) {
        await this.recordWrongCode(user.id, 'totp', verdict, source, null);
        fail('INVALID_CODE');
      }
      return user;
    }
    if (!(await this.useTotp(row, secret, code))) fail('INVALID_CODE');
    const now = this.now();
    const changed = await this.deps.sessions.changeUser(user.id, async (tx) => {
      if (!(await this.deps.repo.confirm(user.id, now, tx))) return false;
      await this.deps.repo.setUserEnabled(user.id, true, now, tx);
      await this.record(tx, 'user.two_factor_enabled', source, user.id, { factor: 'totp' });
      await this.notify(tx, user, 'two-factor-enabled', lang);
      return true;
    });
    return changed ? { ...user, twoFactorEnabled: true, updatedAt: now.toISOString() } : user;
  }

  /** A backup code from the signed-in user (better-auth allows it): spent, and counted, like at sign-in. */
  async verifyBackupCodeSignedIn(user: UserView, code: string, source: AuditSource): Promise<void> {
    const row = await this.deps.repo.find(user.id);
    if (!row?.verified) fail('BACKUP_CODES_NOT_ENABLED');
    const secret = this.secretOf(row);
    const verdict = await this.attempts.spend(
      user.id,
      async () => (await this.useBackupCode(row, secret, code)) !== null,
    );
    if (!verdict.right) {
      await this.recordWrongCode(user.id, 'backup-code', verdict, source, null);
      fail('INVALID_BACKUP_CODE');
    }
  }

  /**
   * Removes the second factor, its backup codes, pending sign-ins and trusted devices; organizations that require
   * one stop being active in the user's sessions (docs/two-factor.md "Policies"), in the same transaction. Answers
   * the user and those organizations.
   */
  async disable(
    user: UserView,
    password: string,
    source: AuditSource,
    lang?: string,
  ): Promise<{ user: UserView; organizationsCleared: string[] }> {
    await this.assertPassword(user.id, password);
    const now = this.now();
    const cleared = await this.deps.sessions.changeUser(user.id, async (tx) => {
      if (!(await this.deps.repo.removeAll(user.id, tx))) return null;
      await this.deps.repo.setUserEnabled(user.id, false, now, tx);
      await this.record(tx, 'user.two_factor_disabled', source, user.id, { factor: 'totp' });
      if (user.twoFactorEnabled) await this.notify(tx, user, 'two-factor-disabled', lang);
      return this.deps.organizations.secondFactorLostIn(tx, user.id);
    });
    if (!cleared) return fail('TWO_FACTOR_NOT_ENABLED');
    await cleared.after();
    return {
      user: { ...user, twoFactorEnabled: false, updatedAt: now.toISOString() },
      organizationsCleared: cleared.organizationIds,
    };
  }

  /**
   * An operator removes the user's second factors (admin reset-two-factor): the TOTP secret, the backup codes, the
   * pending sign-ins, the trusted devices and the other factors plugged in (passkeys), in one transaction with the
   * audit event and the notice to the user; organizations that require a second factor stop being active in the
   * user's sessions. Nothing to remove (no enrolment, not even an unconfirmed one, and no other factor) answers
   * TWO_FACTOR_NOT_ENABLED. Answers the user.
   */
  async reset(user: UserView, source: AuditSource, lang?: string): Promise<UserView> {
    const now = this.now();
    const cleared = await this.deps.sessions.changeUser(user.id, async (tx) => {
      const totp = await this.deps.repo.removeAll(user.id, tx);
      const details: Record<string, number | boolean> = { wasEnabled: user.twoFactorEnabled };
      let others = 0;
      for (const factor of this.deps.resettable) {
        const count = await factor.removeAll(user.id, tx);
        details[`${factor.name}Removed`] = count;
        others += count;
      }
      if (!totp && others === 0) return null;
      await this.deps.repo.setUserEnabled(user.id, false, now, tx);
      await this.record(tx, 'admin.user.two_factor_reset', source, user.id, details);
      await this.notify(tx, user, 'two-factor-reset', lang);
      return this.deps.organizations.secondFactorLostIn(tx, user.id);
    });
    if (!cleared) return fail('TWO_FACTOR_NOT_ENABLED');
    await cleared.after();
    return { ...user, twoFactorEnabled: false, passkeyCount: 0, updatedAt: now.toISOString() };
  }

  /**
   * A new set of backup codes; the old ones stop working. The second factor's row is locked while they are hashed
   * with its secret (a re-seal or a removal meanwhile waits).
   */
  async regenerateBackupCodes(user: UserView, password: string, source: AuditSource, lang?: string) {
    if (!user.twoFactorEnabled) fail('TWO_FACTOR_NOT_ENABLED');
    await this.assertPassword(user.id, password);
    const codes = this.newBackupCodes();
    const now = this.now();
    const replaced = await this.deps.repo.transaction(async (tx) => {
      const row = await this.deps.repo.find(user.id, tx, true);
      if (!row?.verified) return false;
      const secret = this.secretOf(row);
      const hashes = codes.map((c) => hashCode(secret, user.id, c));
      if (!(await this.deps.repo.replaceBackupCodes(user.id, hashes, now, tx))) return false;
      await this.record(tx, 'user.backup_codes_regenerated', source, user.id, { count: codes.length });
      await this.notify(tx, user, 'backup-codes-regenerated', lang);
      return true;
    });
    if (!replaced) fail('TWO_FACTOR_NOT_ENABLED');
    return codes;
  }

  async status(user: UserView): Promise<TwoFactorStatus> {
    const row = await this.deps.repo.find(user.id);
    return {
      enabled: user.twoFactorEnabled,
      totp: row?.verified ?? false,
      backupCodesRemaining: row?.verified ? row.backupCodes.length : 0,
      passkeys: user.passkeyCount,
    };
  }

  // Sign-in

  /**
   * The sign-in seam's gate for a user with a second factor: a device the user trusted (and that trust still
   * running) passes and is renewed; otherwise a pending sign-in is opened, remembering how the first step was made.
   */
  readonly gate: SecondFactorGate = async (user, attempt) => {
    const { config } = this.deps;
    const now = this.now();
    if (attempt.trustedDevice && config.trustDeviceDays > 0) {
      const maxAgeSec = config.trustDeviceDays * 86_400;
      const until = new Date(now.getTime() + maxAgeSec * 1000);
      if (await this.deps.repo.renewDevice(attempt.trustedDevice, user.id, until, now))
        return { pass: true, trustedDevice: { value: attempt.trustedDevice, maxAgeSec } };
    }
    const id = randomString(32);
    const ttl = config.pendingSignInTtlSec;
    const pending = { userId: user.id, rememberMe: attempt.rememberMe, method: attempt.method };
    await this.deps.repo.createChallenge(id, pending, new Date(now.getTime() + ttl * 1000), now);
    return {
      pass: false,
      challenge: { value: id, maxAgeSec: ttl },
      methods: ['totp'],
      forgetDevice: attempt.trustedDevice !== null,
    };
  };

  /**
   * The second step of a sign-in: `challengeId` from the signed cookie, a code of `factor`. Each attempt is
   * counted on the pending sign-in first (one increment, so parallel guesses cannot all slip past the limit); past
   * the limit it is given up. Then it is taken from the account's budget, before the code is checked, so parallel
   * guesses through many pending sign-ins cannot pass the account's lockout either. A right code answers the identity
   * for the sign-in seam, which ends the pending sign-in (and trusts the device, when asked) in the session's
   * transaction.
   */
  async proveSecondStep(
    challengeId: string,
    factor: Factor,
    code: string,
    trustDevice: boolean,
    source: AuditSource,
  ): Promise<ProvenIdentity> {
    const { repo, config } = this.deps;
    const now = this.now();
    const challenge = await repo.countAttempt(challengeId, now);
    if (!challenge) fail('INVALID_TWO_FACTOR_COOKIE');
    if (challenge.attempts > config.maxAttemptsPerSignIn) {
      await repo.dropChallenge(challengeId);
      fail('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE');
    }
    const row = await repo.find(challenge.userId);
    if (!row?.verified) fail(factor === 'totp' ? 'TOTP_NOT_ENABLED' : 'BACKUP_CODES_NOT_ENABLED');
    // opened before an attempt is taken: a secret no configured secret opens costs the owner nothing
    const secret = this.secretOf(row);
    const verdict = await this.attempts.spend(row.userId, async () =>
      factor === 'totp' ? this.useTotp(row, secret, code) : (await this.useBackupCode(row, secret, code)) !== null,
    );
    if (!verdict.right) {
      await this.recordWrongCode(row.userId, factor, verdict, source, challenge.method);
      fail(factor === 'totp' ? 'INVALID_CODE' : 'INVALID_BACKUP_CODE');
    }
    const user = await this.deps.passwords.getUser(challenge.userId);
    if (!user) fail('INVALID_TWO_FACTOR_COOKIE');
    const maxAgeSec = config.trustDeviceDays * 86_400;
    const device = trustDevice && maxAgeSec > 0 ? randomString(32) : null;
    return {
      user,
      method: challenge.method,
      rememberMe: challenge.rememberMe,
      secondFactor: 'skip',
      details: { secondFactor: factor, trustDevice: device !== null },
      spend: async (tx) => {
        if (!(await repo.consumeChallenge(challengeId, now, tx))) fail('INVALID_TWO_FACTOR_COOKIE');
        if (device) await repo.trustDevice(device, user.id, new Date(now.getTime() + maxAgeSec * 1000), now, tx);
      },
      trustedDevice: device ? { value: device, maxAgeSec } : null,
    };
  }

  /** Deletes expired pending sign-ins and trusted devices (the API's periodic sweep). */
  sweepExpired(batch: number): Promise<number> {
    return this.deps.repo.deleteExpired(this.now(), batch);
  }

  // Steps

  /** A right TOTP code whose time step was not used before (the step is then remembered). */
  private async useTotp(row: TwoFactorRow, secret: string, code: string): Promise<boolean> {
    const step = await matchTotp(secret, code, this.deps.clock.now());
    if (step === null) return false;
    return this.deps.repo.acceptStep(row.userId, step, this.now());
  }

  /** Spends a backup code; answers how many are left, or null when it is not one of the user's unused codes. */
  private async useBackupCode(row: TwoFactorRow, secret: string, code: string): Promise<number | null> {
    const plain = normalizeBackupCode(code);
    if (!BACKUP_CODE.test(plain)) return null;
    // Today's codes are stored lower case, so any case matches; a code issued before (mixed case) was stored by its
    // exact case, which its hash alone keeps: it still matches as it was given.
    const hashes = new Set([hashCode(secret, row.userId, plain.toLowerCase()), hashCode(secret, row.userId, plain)]);
    return this.deps.repo.useBackupCode(row.userId, [...hashes], this.now());
  }

  /**
   * A wrong code (its attempt already taken from the budget): at sign-in it is recorded as a failed sign-in by an
   * anonymous caller; the lock, when this attempt started it, is recorded once, by whoever made the attempt.
   */
  private async recordWrongCode(
    userId: string,
    factor: Factor,
    verdict: Extract<CodeVerdict, { right: false }>,
    source: AuditSource,
    /** The pending sign-in's method when the code was given at sign-in, else null. */
    signingIn: string | null,
  ): Promise<void> {
    const { sql, audit } = this.deps;
    const by = signingIn !== null ? { ...source, actor: { type: 'anonymous' as const } } : source;
    if (signingIn !== null)
      await audit.record(sql, {
        type: 'user.sign_in_failed',
        source: by,
        target: userTarget(userId),
        details: { method: signingIn, secondFactor: factor },
      });
    if (verdict.lockStarted)
      await audit.record(sql, {
        type: 'user.two_factor_locked',
        source: by,
        target: userTarget(userId),
        details: { failures: verdict.failures, lockedUntil: verdict.lockStarted.toISOString() },
      });
  }

  /**
   * The TOTP secret. One no configured secret opens (AUTH_SECRET rotated and the old one dropped before the
   * re-seal) answers STORED_SECRET_UNREADABLE, and the log line names the fix.
   */
  private secretOf(row: TwoFactorRow): string {
    const secret = this.deps.sealer.open(row.secretSealed, sealContext(row.userId));
    if (secret === null)
      failLogged('STORED_SECRET_UNREADABLE', unreadableSealed(`the two-factor secret of user ${row.userId}`));
    return secret;
  }

  private async assertPassword(userId: string, password: string): Promise<void> {
    const { ok } = await this.deps.passwords.checkPassword(userId, password);
    if (!ok) fail('INVALID_PASSWORD');
  }

  private newBackupCodes(): string[] {
    return Array.from({ length: this.deps.config.backupCodeCount }, () => {
      const code = randomString(10, BACKUP_CODE_ALPHABET);
      return `${code.slice(0, 5)}-${code.slice(5)}`;
    });
  }

  private record(
    tx: Sql,
    type: AuditEventType,
    source: AuditSource,
    userId: string,
    details: Record<string, string | number | boolean>,
  ) {
    return this.deps.audit.record(tx, { type, source, target: userTarget(userId), details });
  }

  /** The notice of a change, in the change's transaction (mailed once it commits). */
  private notify(
    tx: Sql,
    user: UserView,
    kind: 'two-factor-enabled' | 'two-factor-disabled' | 'two-factor-reset' | 'backup-codes-regenerated',
    lang?: string,
  ): Promise<void> {
    const url = this.deps.config.accountUrl ?? this.deps.publicUrl;
    const job = { kind, to: user.email, name: user.name, language: mailLanguage(user.language, lang), url };
    return this.deps.mail.write(`${kind}.${newId()}`, job, tx);
  }

  private now(): Date {
    return new Date(this.deps.clock.now());
  }
}

/** The sealed secret opens only in its own user's row. */
export const sealContext = (userId: string) => `two-factor:${userId}`;

/**
 * A backup code's stored form: an HMAC keyed by the user's TOTP secret (a key of its own derived from it), bound to
 * the user. A database dump alone cannot be searched for codes (the secret is sealed), and whoever can open the
 * secret holds the second factor anyway. Keyed by the secret rather than by AUTH_SECRET, the codes survive a
 * rotation: re-sealing the secret (`secrets:reseal`) keeps them, where a hash under AUTH_SECRET could never be made
 * again without the codes.
 */
function hashCode(secret: string, userId: string, code: string): string {
  const key = createHmac('sha256', secret).update('identity/backup-codes').digest();
  return createHmac('sha256', key)
    .update(`${userId}:${normalizeBackupCode(code)}`)
    .digest('base64url');
}

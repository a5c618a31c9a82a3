import { createHmac } from 'node:crypto';
import type { TwoFactorConfig } from '../../config';
import { type Sealer, unreadableSealed } from '../../crypto/sealed';
import { matchTotp } from '../../crypto/totp';
import { failLogged } from '../../errors';
import { type AuditSource, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import { AttemptBudget, type CodeVerdict } from './attempt-budget';
import type { TwoFactorAudit } from './deps';
import type { TwoFactorRepository, TwoFactorRow } from './repository';

/** The factors a code can be: an authenticator app's TOTP code, or one of the backup codes. */
export type Factor = 'totp' | 'backup-code';

/**
 * Backup codes are drawn from lower-case letters and digits without the look-alikes (l, i, o, 1, 0): read off paper
 * or a screen, nothing can be mistaken for another character, and they are accepted in any case.
 */
export const BACKUP_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** What a code can be once typed: today's codes, or earlier ones (letters of both cases and every digit). */
const BACKUP_CODE = /^[A-Za-z0-9]{10}$/;
/** A backup code as the user types it: dashes and spaces ignored. */
const normalizeBackupCode = (code: string): string => code.replace(/[\s-]/g, '');

/**
 * Checking a code of a confirmed second factor, the same at enrolment, with a session and at sign-in: the sealed
 * secret opened, a TOTP code's time step accepted once, a backup code spent once, and the account's budget of
 * wrong codes (TWO_FACTOR_LOCKOUT_FAILURES, TWO_FACTOR_LOCKOUT_SEC, attempt-budget.ts) taken from before any code is
 * checked, whatever route or kind of code.
 */
export class CodeChecks {
  readonly attempts: AttemptBudget;

  constructor(
    private readonly deps: {
      sql: Sql;
      repo: TwoFactorRepository;
      sealer: Sealer;
      config: TwoFactorConfig;
      clock: Clock;
      audit: TwoFactorAudit;
    },
  ) {
    const { lockoutFailures: max, lockoutSec: lockSec } = deps.config;
    this.attempts = new AttemptBudget(deps.repo, { max, lockSec }, () => this.now());
  }

  /** A right TOTP code whose time step was not used before (the step is then remembered). */
  async useTotp(row: TwoFactorRow, secret: string, code: string): Promise<boolean> {
    const step = await matchTotp(secret, code, this.deps.clock.now());
    if (step === null) return false;
    return this.deps.repo.acceptStep(row.userId, step, this.now());
  }

  /** Spends a backup code; answers how many are left, or null when it is not one of the user's unused codes. */
  async useBackupCode(row: TwoFactorRow, secret: string, code: string): Promise<number | null> {
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
  async recordWrongCode(
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
  secretOf(row: TwoFactorRow): string {
    const secret = this.deps.sealer.open(row.secretSealed, sealContext(row.userId));
    if (secret === null)
      failLogged('STORED_SECRET_UNREADABLE', unreadableSealed(`the two-factor secret of user ${row.userId}`));
    return secret;
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
export function hashCode(secret: string, userId: string, code: string): string {
  const key = createHmac('sha256', secret).update('identity/backup-codes').digest();
  return createHmac('sha256', key)
    .update(`${userId}:${normalizeBackupCode(code)}`)
    .digest('base64url');
}

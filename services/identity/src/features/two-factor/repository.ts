import type { Sql } from '../../shared/sql';
import type { AttemptBudgetStore } from './attempt-budget';

/** A user's second factor as stored (migration 1796100000300). */
export interface TwoFactorRow {
  userId: string;
  secretSealed: string;
  verified: boolean;
  /** Keyed hashes of the unused backup codes. */
  backupCodes: string[];
  lastUsedStep: number | null;
  failedCount: number;
  lockedUntil: Date | null;
}

export interface Challenge {
  userId: string;
  rememberMe: boolean;
  /** How the first step was made (the sign-in seam's method). */
  method: string;
  attempts: number;
}

type Row = Record<string, unknown>;

const COLUMNS = 'user_id, secret_sealed, verified, backup_codes, last_used_step, failed_count, locked_until';

function toRow(r: Row): TwoFactorRow {
  return {
    userId: r.user_id as string,
    secretSealed: r.secret_sealed as string,
    verified: r.verified as boolean,
    backupCodes: r.backup_codes as string[],
    lastUsedStep: r.last_used_step === null ? null : Number(r.last_used_step),
    failedCount: r.failed_count as number,
    lockedUntil: (r.locked_until as Date | null) ?? null,
  };
}

/**
 * The second factor's tables. Every change that must hold under concurrency is one conditional statement: a code's
 * time step is accepted only above the last one, a backup code is removed only while it is still there, a pending
 * sign-in counts its attempts with one increment and is consumed by one delete, an attempt is taken from the
 * account's budget only while no lock runs. It is the store of the account's attempt budget (attempt-budget.ts).
 */
export class TwoFactorRepository implements AttemptBudgetStore {
  constructor(private readonly sql: Sql) {}

  /** `lock`: held until the transaction `sql` ends (a re-seal or a removal of the row waits). */
  async find(userId: string, sql: Sql = this.sql, lock = false): Promise<TwoFactorRow | null> {
    const rows = await sql.query(`SELECT ${COLUMNS} FROM two_factors WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`, [
      userId,
    ]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * A new, unconfirmed secret and backup codes; replaces an earlier unconfirmed one. False when the user has a
   * confirmed one (it is never replaced here: disable first).
   */
  async startEnrolment(userId: string, secretSealed: string, codes: string[], now: Date, tx: Sql): Promise<boolean> {
    const rows = await tx.query(
      `INSERT INTO two_factors AS t (user_id, secret_sealed, verified, backup_codes, created_at, updated_at)
       VALUES ($1, $2, false, $3, $4, $4)
       ON CONFLICT (user_id) DO UPDATE SET secret_sealed = $2, backup_codes = $3, last_used_step = NULL,
         failed_count = 0, locked_until = NULL, updated_at = $4
       WHERE NOT t.verified
       RETURNING user_id`,
      [userId, secretSealed, codes, now],
    );
    return rows.length > 0;
  }

  /** Accepts `step` for the user once: false when it (or a later one) was accepted before. */
  async acceptStep(userId: string, step: number, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE two_factors SET last_used_step = $2, updated_at = $3
       WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2) RETURNING user_id`,
      [userId, step, now],
    );
    return rows.length > 0;
  }

  /** Confirms the secret (the first code checked); false when it was confirmed already. */
  async confirm(userId: string, now: Date, tx: Sql): Promise<boolean> {
    const rows = await tx.query(
      'UPDATE two_factors SET verified = true, updated_at = $2 WHERE user_id = $1 AND NOT verified RETURNING user_id',
      [userId, now],
    );
    return rows.length > 0;
  }

  async setUserEnabled(userId: string, enabled: boolean, now: Date, tx: Sql): Promise<void> {
    await tx.query('UPDATE users SET two_factor_enabled = $2, updated_at = $3 WHERE id = $1', [userId, enabled, now]);
  }

  /**
   * Removes the backup code whose hash is one of `hashes` (one per key, for a rotated secret); answers how many are
   * left, or null when none of them was there (never was, or used meanwhile by a concurrent request).
   */
  async useBackupCode(userId: string, hashes: string[], now: Date): Promise<number | null> {
    const rows = await this.sql.query<{ remaining: number }>(
      `UPDATE two_factors SET backup_codes = ARRAY(SELECT c FROM unnest(backup_codes) c WHERE c <> ALL($2::text[])),
         updated_at = $3
       WHERE user_id = $1 AND verified AND backup_codes && $2::text[]
       RETURNING cardinality(backup_codes) AS remaining`,
      [userId, hashes, now],
    );
    return rows[0] ? Number(rows[0].remaining) : null;
  }

  async replaceBackupCodes(userId: string, codes: string[], now: Date, tx: Sql): Promise<boolean> {
    const rows = await tx.query(
      'UPDATE two_factors SET backup_codes = $2, updated_at = $3 WHERE user_id = $1 AND verified RETURNING user_id',
      [userId, codes, now],
    );
    return rows.length > 0;
  }

  // The account's budget of wrong codes (attempt-budget.ts): failed_count and locked_until of the user's row

  /**
   * Takes one attempt unless a lock is running: one conditional update, so concurrent takes are counted one after
   * the other on the row and none passes a lock another has just started. A lapsed lock starts the count again.
   */
  async takeAttempt(
    userId: string,
    max: number,
    lockUntil: Date,
    now: Date,
  ): Promise<{ failures: number; lockedUntil: Date | null } | null> {
    const rows = await this.sql.query<{ failed_count: number; locked_until: Date | null }>(
      `UPDATE two_factors SET
         failed_count = CASE WHEN locked_until IS NULL THEN failed_count + 1 ELSE 1 END,
         locked_until = CASE WHEN (CASE WHEN locked_until IS NULL THEN failed_count + 1 ELSE 1 END) >= $2 THEN $3::timestamptz
           ELSE NULL END
       WHERE user_id = $1 AND (locked_until IS NULL OR locked_until <= $4)
       RETURNING failed_count, locked_until`,
      [userId, max, lockUntil, now],
    );
    const r = rows[0];
    return r ? { failures: r.failed_count, lockedUntil: r.locked_until ?? null } : null;
  }

  async returnAttempt(userId: string, startedLock: Date | null): Promise<void> {
    await this.sql.query(
      `UPDATE two_factors SET failed_count = failed_count - 1,
         locked_until = CASE WHEN locked_until = $2 THEN NULL ELSE locked_until END
       WHERE user_id = $1 AND failed_count > 0`,
      [userId, startedLock],
    );
  }

  async resetAttempts(userId: string, startedLock: Date | null, now: Date): Promise<void> {
    await this.sql.query(
      `UPDATE two_factors SET failed_count = 0, locked_until = NULL
       WHERE user_id = $1 AND (failed_count > 0 OR locked_until IS NOT NULL)
         AND (locked_until IS NULL OR locked_until <= $3 OR locked_until = $2)`,
      [userId, startedLock, now],
    );
  }

  /** Removes the second factor, its pending sign-ins and trusted devices. */
  async removeAll(userId: string, tx: Sql): Promise<boolean> {
    const rows = await tx.query('DELETE FROM two_factors WHERE user_id = $1 RETURNING user_id', [userId]);
    await tx.query('DELETE FROM two_factor_challenges WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM two_factor_trusted_devices WHERE user_id = $1', [userId]);
    return rows.length > 0;
  }

  // Pending sign-ins

  async createChallenge(
    id: string,
    pending: { userId: string; rememberMe: boolean; method: string },
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.sql.query(
      `INSERT INTO two_factor_challenges (id, user_id, remember_me, method, attempts, expires_at, created_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6)`,
      [id, pending.userId, pending.rememberMe, pending.method, expiresAt, now],
    );
  }

  /** Counts an attempt at a pending sign-in still open; null when there is none (unknown, expired, consumed). */
  async countAttempt(id: string, now: Date): Promise<Challenge | null> {
    const rows = await this.sql.query<{ user_id: string; remember_me: boolean; method: string; attempts: number }>(
      `UPDATE two_factor_challenges SET attempts = attempts + 1 WHERE id = $1 AND expires_at > $2
       RETURNING user_id, remember_me, method, attempts`,
      [id, now],
    );
    const r = rows[0];
    return r ? { userId: r.user_id, rememberMe: r.remember_me, method: r.method, attempts: r.attempts } : null;
  }

  /** Ends a pending sign-in; false when it was already gone (a concurrent request completed it). */
  async consumeChallenge(id: string, now: Date, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query('DELETE FROM two_factor_challenges WHERE id = $1 AND expires_at > $2 RETURNING id', [
      id,
      now,
    ]);
    return rows.length > 0;
  }

  async dropChallenge(id: string): Promise<void> {
    await this.sql.query('DELETE FROM two_factor_challenges WHERE id = $1', [id]);
  }

  // Trusted devices

  async trustDevice(id: string, userId: string, expiresAt: Date, now: Date, tx: Sql): Promise<void> {
    await tx.query(
      'INSERT INTO two_factor_trusted_devices (id, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)',
      [id, userId, expiresAt, now],
    );
  }

  /** Extends a device trusted by this user and not expired; false otherwise. */
  async renewDevice(id: string, userId: string, expiresAt: Date, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE two_factor_trusted_devices SET expires_at = $3
       WHERE id = $1 AND user_id = $2 AND expires_at > $4 RETURNING id`,
      [id, userId, expiresAt, now],
    );
    return rows.length > 0;
  }

  /** Deletes expired pending sign-ins and trusted devices; answers how many went. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const a = await this.sql.query(
      'DELETE FROM two_factor_challenges WHERE id IN (SELECT id FROM two_factor_challenges WHERE expires_at <= $1 LIMIT $2) RETURNING id',
      [now, limit],
    );
    const b = await this.sql.query(
      'DELETE FROM two_factor_trusted_devices WHERE id IN (SELECT id FROM two_factor_trusted_devices WHERE expires_at <= $1 LIMIT $2) RETURNING id',
      [now, limit],
    );
    return a.length + b.length;
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}

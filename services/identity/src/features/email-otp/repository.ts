import { createHash } from 'node:crypto';
import { newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';

/** The kinds of code better-auth's email-otp plugin mails: three from its send route, `change-email` from its own. */
export type CodeType = 'sign-in' | 'email-verification' | 'forget-password' | 'change-email';

/**
 * A code's key: its kind and the address's SHA-256 (a change of email's: the current and the new address), so the
 * table names no address. One live code per key.
 */
export const codeKey = (type: CodeType, email: string) =>
  `email-otp:${type}:${createHash('sha256').update(email).digest('base64url')}`;

/** A stored code: its keyed hash (never the code) and the tries counted on it so far. */
interface Stored {
  hash: string;
  attempts: number;
}

/**
 * Mailed codes in the verifications table (whose sweep removes expired rows). Every try is counted on the row in
 * one statement before the code is compared, so parallel guesses never get more tries than the limit; `take` is one
 * DELETE … RETURNING guarded by the hash, so a right code is used exactly once.
 */
export class EmailOtpRepository {
  constructor(private readonly sql: Sql) {}

  /** Stores a new code for `key`, replacing the previous one (and its tries). */
  async put(key: string, hash: string, expiresAt: Date, now: Date, tx: Sql): Promise<void> {
    await tx.query(
      `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (identifier) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at,
         created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
      [newId(), key, JSON.stringify({ hash, attempts: 0 } satisfies Stored), expiresAt, now],
    );
  }

  /** Counts one try on the live code of `key`; answers it with the tries so far (this one included), or null. */
  async countTry(key: string, now: Date): Promise<Stored | null> {
    const rows = await this.sql.query<{ value: string }>(
      `UPDATE verifications
         SET value = jsonb_set(value::jsonb, '{attempts}', to_jsonb(((value::jsonb)->>'attempts')::int + 1))::text
       WHERE identifier = $1 AND expires_at > $2
       RETURNING value`,
      [key, now],
    );
    return rows[0] ? (JSON.parse(rows[0].value) as Stored) : null;
  }

  /**
   * Takes back the try a right check counted (check-verification-otp uses nothing up), on the code with `hash` only:
   * a newer code mailed meanwhile keeps its own count.
   */
  async giveBackTry(key: string, hash: string): Promise<void> {
    await this.sql.query(
      `UPDATE verifications
         SET value = jsonb_set(value::jsonb, '{attempts}',
           to_jsonb(GREATEST(((value::jsonb)->>'attempts')::int - 1, 0)))::text
       WHERE identifier = $1 AND (value::jsonb)->>'hash' = $2`,
      [key, hash],
    );
  }

  /** Removes an expired code of `key`; true when there was one. */
  async dropExpired(key: string, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      'DELETE FROM verifications WHERE identifier = $1 AND expires_at <= $2 RETURNING id',
      [key, now],
    );
    return rows.length > 0;
  }

  /** Uses the code up (the one with `hash`, not a newer one mailed meanwhile); false when it was used already. */
  async take(key: string, hash: string, now: Date, tx: Sql): Promise<boolean> {
    const rows = await tx.query(
      `DELETE FROM verifications WHERE identifier = $1 AND (value::jsonb)->>'hash' = $2 AND expires_at > $3
       RETURNING id`,
      [key, hash, now],
    );
    return rows.length > 0;
  }
}

import { newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';

/**
 * Single-use tokens in the verifications table (spec §3: `reset-password:{token}`, `delete-account-{token}`,
 * and the ids of used verification JWTs). `take` is one DELETE … RETURNING: of several requests presenting the
 * same token at the same instant exactly one gets the row (a guarded DELETE … RETURNING).
 */
export class TokenRepository {
  constructor(private readonly sql: Sql) {}

  async put(identifier: string, value: string, expiresAt: Date, now: Date, sql: Sql = this.sql): Promise<void> {
    await sql.query(
      `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [newId(), identifier, value, expiresAt, now],
    );
  }

  /** The value of a live token, without using it up (to answer a link before the form is sent). */
  async peek(identifier: string, now: Date): Promise<string | null> {
    const rows = await this.sql.query<{ value: string }>(
      'SELECT value FROM verifications WHERE identifier = $1 AND expires_at > $2',
      [identifier, now],
    );
    return rows[0]?.value ?? null;
  }

  /** Uses the token up: its value when it existed and had not expired (an expired row is removed too). */
  async take(identifier: string, now: Date, sql: Sql = this.sql): Promise<string | null> {
    const rows = await sql.query<{ value: string; expires_at: Date }>(
      'DELETE FROM verifications WHERE identifier = $1 RETURNING value, expires_at',
      [identifier],
    );
    const row = rows[0];
    return row && row.expires_at.getTime() > now.getTime() ? row.value : null;
  }

  /** `take`, but only a token issued for `value` (a user's own deletion token): a foreign token stays unused. */
  async takeFor(identifier: string, value: string, now: Date, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query<{ expires_at: Date }>(
      'DELETE FROM verifications WHERE identifier = $1 AND value = $2 RETURNING expires_at',
      [identifier, value],
    );
    return rows.length > 0 && rows[0].expires_at.getTime() > now.getTime();
  }

  /** Removes the tokens issued for `value` (a user id): of one kind (`prefix`), or of every kind. */
  async deleteForValue(value: string, prefix = '', sql: Sql = this.sql): Promise<void> {
    await sql.query("DELETE FROM verifications WHERE identifier LIKE $1 || '%' AND value = $2", [prefix, value]);
  }

  /** Deletes up to `limit` tokens past their expiry (used JWT ids included); returns how many went. */
  async deleteExpired(now: Date, limit = 1000): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(
      'DELETE FROM verifications WHERE id IN (SELECT id FROM verifications WHERE expires_at <= $1 LIMIT $2) RETURNING id',
      [now, limit],
    );
    return rows.length;
  }
}

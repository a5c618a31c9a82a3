import { isoOf } from '../../shared/pg-time';
import type { Sql } from '../../shared/sql';
import type { PasskeyView } from './schemas';

/** A passkey as stored (migration 1796100000500). */
export interface PasskeyRow {
  id: string;
  userId: string;
  name: string | null;
  /** base64url, as the authenticator names the credential. */
  credentialId: string;
  /** The COSE public key, base64 (better-auth's form). */
  publicKey: string;
  counter: number;
  deviceType: string;
  backedUp: boolean;
  /** Comma-separated; '' when the authenticator reported none. */
  transports: string;
  aaguid: string | null;
  createdAt: Date;
}

export type NewPasskey = Omit<PasskeyRow, 'createdAt'>;

export type Ceremony = 'registration' | 'authentication';

/** A ceremony in progress: what it was started for, and by whom when a session started it. */
export interface StoredChallenge {
  ceremony: Ceremony;
  challenge: string;
  userId: string | null;
}

type Row = Record<string, unknown>;

const COLUMNS =
  'id, user_id, name, credential_id, public_key, counter, device_type, backed_up, transports, aaguid, created_at';

function toRow(r: Row): PasskeyRow {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: (r.name as string | null) ?? null,
    credentialId: r.credential_id as string,
    publicKey: r.public_key as string,
    counter: Number(r.counter),
    deviceType: r.device_type as string,
    backedUp: r.backed_up as boolean,
    transports: r.transports as string,
    aaguid: (r.aaguid as string | null) ?? null,
    createdAt: r.created_at as Date,
  };
}

/** A passkey as the API answers it: better-auth's passkey model. */
export function toView(row: PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    publicKey: row.publicKey,
    userId: row.userId,
    credentialID: row.credentialId,
    counter: row.counter,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: row.transports,
    createdAt: isoOf(row.createdAt),
    aaguid: row.aaguid,
  };
}

/**
 * The passkey tables. What must hold under concurrency is one conditional statement each: a challenge is consumed
 * by one DELETE (of two verifications presenting it, one gets it), a signature counter moves only forward (one
 * UPDATE that compares), and `users.passkey_count` changes by the rows an INSERT or DELETE actually touched, in
 * their transaction.
 */
export class PasskeyRepository {
  constructor(private readonly sql: Sql) {}

  async listOf(userId: string, sql: Sql = this.sql): Promise<PasskeyRow[]> {
    const rows = await sql.query(`SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, [
      userId,
    ]);
    return rows.map(toRow);
  }

  async findByCredential(credentialId: string): Promise<PasskeyRow | null> {
    const rows = await this.sql.query(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = $1`, [credentialId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Adds the passkey and counts it on the user. A credential registered already is a unique violation. */
  async insert(passkey: NewPasskey, now: Date, tx: Sql): Promise<PasskeyRow> {
    const rows = await tx.query(
      `INSERT INTO passkeys (id, user_id, name, credential_id, public_key, counter, device_type, backed_up, transports,
         aaguid, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
      [
        passkey.id,
        passkey.userId,
        passkey.name,
        passkey.credentialId,
        passkey.publicKey,
        passkey.counter,
        passkey.deviceType,
        passkey.backedUp,
        passkey.transports,
        passkey.aaguid,
        now,
      ],
    );
    await this.count(passkey.userId, 1, now, tx);
    return toRow(rows[0]);
  }

  /** Renames the user's passkey; null when the user has no passkey of that id. */
  async rename(id: string, userId: string, name: string): Promise<PasskeyRow | null> {
    const rows = await this.sql.query(
      `UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, userId, name],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Removes the user's passkey (and its count); null when the user has no passkey of that id. */
  async remove(id: string, userId: string, now: Date, tx: Sql): Promise<PasskeyRow | null> {
    const rows = await tx.query(`DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`, [
      id,
      userId,
    ]);
    if (!rows[0]) return null;
    await this.count(userId, -1, now, tx);
    return toRow(rows[0]);
  }

  /** Removes every passkey of the user and their challenges; answers how many passkeys went. */
  async removeAll(userId: string, now: Date, tx: Sql): Promise<number> {
    const rows = await tx.query('DELETE FROM passkeys WHERE user_id = $1 RETURNING id', [userId]);
    await tx.query('DELETE FROM passkey_challenges WHERE user_id = $1', [userId]);
    if (rows.length > 0) await this.count(userId, -rows.length, now, tx);
    return rows.length;
  }

  /**
   * Records the counter of a verified assertion. It only moves forward (or stays at 0 for an authenticator that
   * keeps none): false when a concurrent sign-in with the same or a later counter got there first.
   */
  async advanceCounter(id: string, counter: number): Promise<boolean> {
    const rows = await this.sql.query(
      'UPDATE passkeys SET counter = $2 WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0)) RETURNING id',
      [id, counter],
    );
    return rows.length > 0;
  }

  private async count(userId: string, delta: number, now: Date, tx: Sql): Promise<void> {
    await tx.query('UPDATE users SET passkey_count = passkey_count + $2, updated_at = $3 WHERE id = $1', [
      userId,
      delta,
      now,
    ]);
  }

  // Ceremonies in progress

  async createChallenge(id: string, stored: StoredChallenge, expiresAt: Date, now: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO passkey_challenges (id, ceremony, challenge, user_id, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, stored.ceremony, stored.challenge, stored.userId, expiresAt, now],
    );
  }

  /** Takes the challenge: one DELETE, so of two verifications presenting it one gets it. Null: unknown or expired. */
  async consumeChallenge(id: string, now: Date): Promise<StoredChallenge | null> {
    const rows = await this.sql.query<{ ceremony: Ceremony; challenge: string; user_id: string | null }>(
      'DELETE FROM passkey_challenges WHERE id = $1 AND expires_at > $2 RETURNING ceremony, challenge, user_id',
      [id, now],
    );
    const r = rows[0];
    return r ? { ceremony: r.ceremony, challenge: r.challenge, userId: r.user_id } : null;
  }

  /** Deletes challenges past their expiry (the API's periodic sweep); answers how many went. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const rows = await this.sql.query(
      'DELETE FROM passkey_challenges WHERE id IN (SELECT id FROM passkey_challenges WHERE expires_at <= $1 LIMIT $2) RETURNING id',
      [now, limit],
    );
    return rows.length;
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}

import { newId } from '../../crypto/random';
import { toUserView, USER_COLUMNS, USER_RETURNING } from '../../db/user-row';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { ProfileFields } from './schemas';

export interface NewUser {
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  language: string | null;
  /** Admin role text (spec §3); the column default (user) when absent. */
  role?: string;
}

/** Users and their accounts. Emails arrive here already lowercased (spec §3). */
export class AccountRepository {
  constructor(private readonly sql: Sql) {}

  async findUserByEmail(email: string): Promise<UserView | null> {
    const rows = await this.sql.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.email = $1`, [email]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  async findUserById(id: string): Promise<UserView | null> {
    const rows = await this.sql.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /**
   * The user of `email` with its credential account's password hash (null for a social-only user), in one round
   * trip: a sign-in reads both, and a known and an unknown address then cost the database the same.
   */
  async findUserWithPasswordHash(email: string): Promise<{ user: UserView; passwordHash: string | null } | null> {
    const rows = await this.sql.query(
      `SELECT ${USER_COLUMNS},
         (SELECT a.password FROM accounts a WHERE a.user_id = u.id AND a.provider_id = 'credential') AS password_hash
       FROM users u WHERE u.email = $1`,
      [email],
    );
    return rows[0]
      ? { user: toUserView(rows[0]), passwordHash: (rows[0].password_hash as string | null) ?? null }
      : null;
  }

  /** The credential account's password hash, or null (no user, or a social-only user). */
  async findPasswordHash(userId: string): Promise<string | null> {
    const rows = await this.sql.query<{ password: string | null }>(
      "SELECT password FROM accounts WHERE user_id = $1 AND provider_id = 'credential'",
      [userId],
    );
    return rows[0]?.password ?? null;
  }

  /** User and credential account in one transaction (with what `also` writes, its audit event): all or none. */
  async createWithPassword(
    user: NewUser,
    passwordHash: string,
    now: Date,
    also: (tx: Sql, user: UserView) => Promise<void>,
  ): Promise<UserView> {
    return this.createWith(user, now, async (tx, created) => {
      await this.insertCredential(created.id, passwordHash, now, tx);
      await also(tx, created);
    });
  }

  /**
   * A new user and, in the same transaction, what `attach` adds for it (a credential, a provider account): both
   * exist or neither.
   */
  async createWith(user: NewUser, now: Date, attach: (tx: Sql, user: UserView) => Promise<void>): Promise<UserView> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query(
        `INSERT INTO users (id, email, email_verified, name, image, language, role, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $8, $7, $7) RETURNING ${USER_RETURNING}`,
        [newId(), user.email, user.emailVerified, user.name, user.image, user.language, now, user.role ?? 'user'],
      );
      const created = toUserView(rows[0]);
      await attach(tx, created);
      return created;
    });
  }

  async updatePasswordHash(userId: string, passwordHash: string, now: Date, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query(
      "UPDATE accounts SET password = $2, updated_at = $3 WHERE user_id = $1 AND provider_id = 'credential' RETURNING id",
      [userId, passwordHash, now],
    );
    return rows.length > 0;
  }

  /** The credential account's password, created when the user has none yet (a social-only user resetting). */
  async upsertPasswordHash(userId: string, passwordHash: string, now: Date, sql: Sql = this.sql): Promise<void> {
    if (await this.updatePasswordHash(userId, passwordHash, now, sql)) return;
    await this.insertCredential(userId, passwordHash, now, sql);
  }

  /** Creates the credential account; false when one exists already (unique provider/account id). */
  async insertCredential(userId: string, passwordHash: string, now: Date, sql: Sql = this.sql): Promise<boolean> {
    const rows = await sql.query(
      `INSERT INTO accounts (id, provider_id, account_id, user_id, password, created_at, updated_at)
       VALUES ($1, 'credential', $2::text, $2::uuid, $3, $4, $4)
       ON CONFLICT (provider_id, account_id) DO NOTHING RETURNING id`,
      [newId(), userId, passwordHash, now],
    );
    return rows.length > 0;
  }

  /** Marks the address verified only when it was not; false when it already was (or the user is gone). */
  async verifyUnverified(userId: string, now: Date, sql: Sql): Promise<boolean> {
    const rows = await sql.query(
      'UPDATE users SET email_verified = true, updated_at = $2 WHERE id = $1 AND NOT email_verified RETURNING id',
      [userId, now],
    );
    return rows.length > 0;
  }

  /** Removes the user's password (their credential account), in `sql`. */
  async removePassword(userId: string, sql: Sql): Promise<void> {
    await sql.query("DELETE FROM accounts WHERE user_id = $1 AND provider_id = 'credential'", [userId]);
  }

  async markEmailVerified(userId: string, email: string, now: Date, sql: Sql = this.sql): Promise<UserView | null> {
    const rows = await sql.query(
      `UPDATE users SET email_verified = true, updated_at = $3 WHERE id = $1 AND email = $2 RETURNING ${USER_RETURNING}`,
      [userId, email, now],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /**
   * Moves the account to `email`, unverified (or `verified`: the new address was proven). Null when the user is gone
   * or the address is taken, also when a concurrent sign-up takes it between the check and the write (the unique
   * index decides).
   */
  async changeEmail(
    userId: string,
    email: string,
    now: Date,
    sql: Sql = this.sql,
    verified = false,
  ): Promise<UserView | null> {
    const rows = await sql
      .query(
        `UPDATE users SET email = $2, email_verified = $4, updated_at = $3
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users WHERE email = $2) RETURNING ${USER_RETURNING}`,
        [userId, email, now, verified],
      )
      .catch((error) => (isUniqueViolation(error) ? [] : Promise.reject(error)));
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /** Deletes the user; sessions and accounts go with it (ON DELETE CASCADE). */
  async deleteUser(userId: string, sql: Sql = this.sql): Promise<boolean> {
    return (await sql.query('DELETE FROM users WHERE id = $1 RETURNING id', [userId])).length > 0;
  }

  /** Only the profile fields a user may change themselves (spec §3: never role or ban fields). */
  async updateProfile(userId: string, fields: ProfileFields, now: Date, sql: Sql = this.sql): Promise<UserView | null> {
    const rows = await sql.query(
      `UPDATE users SET name = COALESCE($2, name), image = CASE WHEN $3::boolean THEN $4 ELSE image END,
         language = COALESCE($6, language), updated_at = $5
       WHERE id = $1 RETURNING ${USER_RETURNING}`,
      [userId, fields.name ?? null, fields.image !== undefined, fields.image ?? null, now, fields.language ?? null],
    );
    return rows[0] ? toUserView(rows[0]) : null;
  }
}

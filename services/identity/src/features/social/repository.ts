import { newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';

const ACCOUNT_COLUMNS = `id, provider_id, account_id, user_id, access_token, refresh_token, id_token,
  access_token_expires_at, refresh_token_expires_at, scope, created_at, updated_at`;

/** A provider account row; token columns hold sealed text (see TokenVault). */
export interface AccountRow {
  id: string;
  providerId: string;
  accountId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type StoredTokens = Pick<
  AccountRow,
  'accessToken' | 'refreshToken' | 'idToken' | 'accessTokenExpiresAt' | 'refreshTokenExpiresAt' | 'scope'
>;

const toAccount = (r: Record<string, unknown>): AccountRow => ({
  id: r.id as string,
  providerId: r.provider_id as string,
  accountId: r.account_id as string,
  userId: r.user_id as string,
  accessToken: (r.access_token as string | null) ?? null,
  refreshToken: (r.refresh_token as string | null) ?? null,
  idToken: (r.id_token as string | null) ?? null,
  accessTokenExpiresAt: (r.access_token_expires_at as Date | null) ?? null,
  refreshTokenExpiresAt: (r.refresh_token_expires_at as Date | null) ?? null,
  scope: (r.scope as string | null) ?? null,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});

/**
 * Provider accounts (spec §3 Account rows whose provider is not 'credential'); users themselves are the account
 * feature's (AccountService.registerExternal).
 */
export class SocialRepository {
  constructor(private readonly sql: Sql) {}

  async findAccount(providerId: string, accountId: string): Promise<AccountRow | null> {
    const rows = await this.sql.query(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider_id = $1 AND account_id = $2`,
      [providerId, accountId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Every account of the user, the credential one included (its password never leaves this query). */
  async listForUser(userId: string): Promise<AccountRow[]> {
    const rows = await this.sql.query(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map(toAccount);
  }

  async insertAccount(
    userId: string,
    account: { providerId: string; accountId: string; seal: (id: string) => StoredTokens },
    now: Date,
    sql: Sql = this.sql,
  ): Promise<AccountRow> {
    const id = newId();
    const t = account.seal(id);
    const rows = await sql.query(
      `INSERT INTO accounts (id, provider_id, account_id, user_id, access_token, refresh_token, id_token,
         access_token_expires_at, refresh_token_expires_at, scope, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING ${ACCOUNT_COLUMNS}`,
      [
        id,
        account.providerId,
        account.accountId,
        userId,
        t.accessToken,
        t.refreshToken,
        t.idToken,
        t.accessTokenExpiresAt,
        t.refreshTokenExpiresAt,
        t.scope,
        now,
      ],
    );
    return toAccount(rows[0]);
  }

  /** New tokens for an account; a token the provider did not send again keeps its stored value. */
  async updateTokens(id: string, t: StoredTokens, now: Date): Promise<AccountRow | null> {
    const rows = await this.sql.query(
      `UPDATE accounts SET access_token = COALESCE($2, access_token), refresh_token = COALESCE($3, refresh_token),
         id_token = COALESCE($4, id_token), access_token_expires_at = $5,
         refresh_token_expires_at = COALESCE($6, refresh_token_expires_at), scope = COALESCE($7, scope), updated_at = $8
       WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
      [id, t.accessToken, t.refreshToken, t.idToken, t.accessTokenExpiresAt, t.refreshTokenExpiresAt, t.scope, now],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /**
   * Unlinks one of the user's accounts unless it is the last one. The user row is locked first, so two unlinks
   * racing for the last two accounts run one after the other and the second sees one account left.
   */
  async unlink(
    userId: string,
    providerId: string,
    accountId: string | undefined,
    also: (tx: Sql, accountId: string) => Promise<void>,
  ): Promise<'unlinked' | 'not_found' | 'last'> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const rows = await tx.query<{ id: string; account_id: string }>(
        'SELECT id, account_id FROM accounts WHERE user_id = $1 AND provider_id = $2 AND ($3::text IS NULL OR account_id = $3)',
        [userId, providerId, accountId ?? null],
      );
      if (rows.length === 0) return 'not_found';
      const [{ count }] = await tx.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM accounts WHERE user_id = $1',
        [userId],
      );
      if (count <= 1) return 'last';
      await tx.query('DELETE FROM accounts WHERE id = $1', [rows[0].id]);
      await also(tx, rows[0].account_id);
      return 'unlinked';
    });
  }
}

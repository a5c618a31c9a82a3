import { isId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';
import { type ApiKeyView, toApiKey } from './views';

export interface NewApiKey {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  keyHash: string;
  userId: string | null;
  organizationId: string | null;
  refillInterval: number | null;
  refillAmount: number | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  remaining: number | null;
  expiresAt: Date | null;
  permissions: string | null;
  metadata: string | null;
  now: Date;
}

/** Columns an update may set (snake_case names, never taken from input). */
export type ApiKeyChanges = Partial<{
  name: string | null;
  enabled: boolean;
  expires_at: Date | null;
  metadata: string | null;
  remaining: number | null;
  refill_amount: number | null;
  refill_interval: number | null;
  rate_limit_enabled: boolean;
  rate_limit_time_window: number | null;
  rate_limit_max: number | null;
  permissions: string | null;
}>;

/** A refill is due when its interval has passed since the last refill (or the creation). $2 is now. */
const REFILL_DUE = `(refill_interval IS NOT NULL AND refill_amount IS NOT NULL
  AND $2 >= COALESCE(last_refill_at, created_at) + refill_interval * interval '1 millisecond')`;

export class ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  async insert(k: NewApiKey, sql: Sql = this.sql): Promise<ApiKeyView> {
    const rows = await sql.query(
      `INSERT INTO api_keys (id, name, start, prefix, key_hash, user_id, organization_id, refill_interval,
         refill_amount, enabled, rate_limit_enabled, rate_limit_time_window, rate_limit_max, remaining, expires_at,
         permissions, metadata, request_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 0, $18, $18) RETURNING *`,
      [
        k.id,
        k.name,
        k.start,
        k.prefix,
        k.keyHash,
        k.userId,
        k.organizationId,
        k.refillInterval,
        k.refillAmount,
        k.enabled,
        k.rateLimitEnabled,
        k.rateLimitTimeWindow,
        k.rateLimitMax,
        k.remaining,
        k.expiresAt,
        k.permissions,
        k.metadata,
        k.now,
      ],
    );
    return toApiKey(rows[0]);
  }

  async findById(id: string): Promise<ApiKeyView | null> {
    if (!isId(id)) return null;
    const rows = await this.sql.query('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async findByHash(keyHash: string): Promise<ApiKeyView | null> {
    const rows = await this.sql.prepared('api-key-by-hash', 'SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async list(owner: { userId: string } | { organizationId: string }): Promise<ApiKeyView[]> {
    const [column, value] = 'userId' in owner ? ['user_id', owner.userId] : ['organization_id', owner.organizationId];
    const rows = await this.sql.query(`SELECT * FROM api_keys WHERE ${column} = $1 ORDER BY created_at, id`, [value]);
    return rows.map(toApiKey);
  }

  /** Sets the given columns; null when no row was updated (gone, or the write did not happen). */
  async update(id: string, changes: ApiKeyChanges, now: Date, sql: Sql = this.sql): Promise<ApiKeyView | null> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const sets = entries.map(([column], i) => `${column} = $${i + 3}`);
    const rows = await sql.query(
      `UPDATE api_keys SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, now, ...entries.map(([, v]) => v)],
    );
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async delete(id: string, sql: Sql = this.sql): Promise<boolean> {
    return (await sql.query('DELETE FROM api_keys WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  /**
   * Spends one use in one guarded statement (concurrent uses never spend the same one): a due refill resets `remaining` to `refillAmount` first,
   * and a key with no use left is not updated at all, so parallel requests on any number of instances can never
   * spend more uses than there are (PostgreSQL re-checks the WHERE on the row version it locks). Null: not spent.
   */
  async spendUse(id: string, now: Date, requestCount: number): Promise<ApiKeyView | null> {
    const rows = await this.sql.prepared(
      'api-key-spend-use',
      `UPDATE api_keys SET
         remaining = CASE WHEN remaining IS NULL THEN NULL
                          WHEN ${REFILL_DUE} THEN refill_amount - 1 ELSE remaining - 1 END,
         last_refill_at = CASE WHEN remaining IS NOT NULL AND ${REFILL_DUE} THEN $2 ELSE last_refill_at END,
         last_request = $2, request_count = $3
       WHERE id = $1 AND (remaining IS NULL OR remaining > 0 OR (${REFILL_DUE} AND refill_amount > 0))
       RETURNING *`,
      [id, now, requestCount],
    );
    return rows[0] ? toApiKey(rows[0]) : null;
  }
}

import type { Sql } from '../../shared/sql';

/** The library's models kept in PostgreSQL (`oidc_records`): those that outlive a browser visit. */
export const DURABLE_MODELS = ['Grant', 'RefreshToken'] as const;
export type DurableModel = (typeof DURABLE_MODELS)[number];

export interface RecordRow {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
}

export interface RecordWrite {
  model: DurableModel;
  id: string;
  payload: object;
  grantId: string | null;
  userId: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** UUIDs only go to the `user_id` column (an account id is a user id; anything else is not a user's). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The provider's durable records: grants and refresh tokens (migration 1796500000100). */
export class RecordRepository {
  constructor(private readonly sql: Sql) {}

  async upsert(row: RecordWrite): Promise<void> {
    await this.sql.query(
      `INSERT INTO oidc_records (model, id, payload, grant_id, user_id, expires_at, created_at)
       SELECT $1::text, $2::text, $3::text, $4::text, u.id, $6::timestamptz, $7::timestamptz
       FROM (SELECT $5::uuid AS id) AS given LEFT JOIN users u ON u.id = given.id
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_id = EXCLUDED.user_id, expires_at = EXCLUDED.expires_at`,
      [
        row.model,
        row.id,
        JSON.stringify(row.payload),
        row.grantId,
        row.userId && UUID.test(row.userId) ? row.userId : null,
        row.expiresAt,
        row.createdAt,
      ],
    );
  }

  async find(model: DurableModel, id: string): Promise<RecordRow | null> {
    const rows = await this.sql.query<{ payload: string; consumedAt: Date | null }>(
      'SELECT payload, consumed_at AS "consumedAt" FROM oidc_records WHERE model = $1 AND id = $2',
      [model, id],
    );
    const row = rows[0];
    return row ? { payload: JSON.parse(row.payload) as Record<string, unknown>, consumedAt: row.consumedAt } : null;
  }

  /** Marks the record used; false when it was already (a concurrent use): the caller treats that as a replay. */
  async consume(model: DurableModel, id: string, at: Date): Promise<boolean> {
    const rows = await this.sql.query(
      'UPDATE oidc_records SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING id',
      [model, id, at],
    );
    return rows.length === 1;
  }

  async destroy(model: DurableModel, id: string): Promise<void> {
    await this.sql.query('DELETE FROM oidc_records WHERE model = $1 AND id = $2', [model, id]);
  }

  async revokeByGrantId(model: DurableModel, grantId: string): Promise<void> {
    await this.sql.query('DELETE FROM oidc_records WHERE model = $1 AND grant_id = $2', [model, grantId]);
  }

  /** Deletes records past their expiry (and a margin for the provider's clock tolerance); answers how many. */
  async sweepExpired(before: Date, limit: number): Promise<number> {
    const rows = await this.sql.query(
      `DELETE FROM oidc_records WHERE ctid IN (
         SELECT ctid FROM oidc_records WHERE expires_at < $1 LIMIT $2
       ) RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }
}

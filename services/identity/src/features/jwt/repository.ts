import type { Sql } from '../../shared/sql';

export interface KeyRow {
  id: string;
  publicKey: string;
  privateKey: string;
  alg: string;
  createdAt: Date;
  retiredAt: Date | null;
}

const COLUMNS =
  'id, public_key AS "publicKey", private_key AS "privateKey", alg, created_at AS "createdAt", retired_at AS "retiredAt"';

/** One advisory lock id for every change to the key set: two instances never both create or rotate a key. */
const KEY_SET_LOCK = 0x6a776b73; // "jwks"

/** The key-pair records (spec §3). The table holds a handful of rows: whole-table reads are fine. */
export class KeyRepository {
  constructor(private readonly sql: Sql) {}

  /** Every key not yet dropped, the active one (not retired) first, then the most recently retired. */
  list(sql: Sql = this.sql): Promise<KeyRow[]> {
    return sql.query<KeyRow>(`SELECT ${COLUMNS} FROM jwks ORDER BY retired_at DESC NULLS FIRST, created_at DESC`);
  }

  /**
   * Runs `work` holding the key-set lock (a transaction-scoped advisory lock), so a check-then-insert inside it
   * (create the first key, rotate) cannot interleave with another instance's.
   */
  locked<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [KEY_SET_LOCK]);
      return work(tx);
    });
  }

  async insert(tx: Sql, row: Omit<KeyRow, 'retiredAt'>): Promise<void> {
    await tx.query('INSERT INTO jwks (id, public_key, private_key, alg, created_at) VALUES ($1, $2, $3, $4, $5)', [
      row.id,
      row.publicKey,
      row.privateKey,
      row.alg,
      row.createdAt,
    ]);
  }

  /** Retires the active key of `alg`. */
  async retireActive(tx: Sql, at: Date, alg: string): Promise<void> {
    await tx.query('UPDATE jwks SET retired_at = $1 WHERE retired_at IS NULL AND alg = $2', [at, alg]);
  }

  /** Retires every active key of an algorithm not in `algs` (the configured algorithm changed). */
  async retireActiveExcept(tx: Sql, at: Date, algs: string[]): Promise<void> {
    await tx.query('UPDATE jwks SET retired_at = $1 WHERE retired_at IS NULL AND alg <> ALL($2::text[])', [at, algs]);
  }

  /** Drops retired keys whose tokens have all expired (retired before `before`). */
  async deleteRetiredBefore(before: Date): Promise<number> {
    const rows = await this.sql.query('DELETE FROM jwks WHERE retired_at < $1 RETURNING id', [before]);
    return rows.length;
  }
}

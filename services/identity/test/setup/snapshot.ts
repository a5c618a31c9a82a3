import type { Sql } from '../../src/shared/sql';

/**
 * Runs `work` in a REPEATABLE READ transaction (one snapshot: other test files' writes stay out), retried on 40001
 * (a counter row of users updated by another test file since the snapshot).
 */
export async function inOneSnapshot<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sql.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return work(tx);
      });
    } catch (error) {
      if ((error as { code?: string }).code !== '40001' || attempt === 5) throw error;
    }
  }
}

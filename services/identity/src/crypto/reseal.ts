import type { Sql } from '../shared/sql';
import type { Sealer } from './sealed';

/** A table's sealed columns (docs/security.md, rotation), for `secrets:reseal`. */
export interface SealedColumns {
  /** How the command's report names the values. */
  label: string;
  table: string;
  /** The primary key, a uuid: the table is walked in its order. */
  key: string;
  /** Each sealed column, and its sealing context as it follows from the row's key. */
  columns: ReadonlyArray<{ name: string; context: (key: string) => string }>;
}

/** What a walk found: values already under the current secret, sealed again, and opened by no configured secret. */
export interface ResealCount {
  label: string;
  values: number;
  resealed: number;
  current: number;
  unreadable: number;
  /** Keys of the rows holding an unreadable value (the first 20), for the operator. */
  unreadableKeys: string[];
}

export interface ResealOptions {
  /** Rows per transaction. */
  batchSize: number;
  /** Called after each committed batch (tests stop a walk there, as a killed process would). */
  afterBatch?: (count: ResealCount) => void | Promise<void>;
}

const UNREADABLE_SHOWN = 20;

/**
 * Seals again under the current key every value of `spec` that only a previous key opens. The table is walked in
 * key order, `batchSize` rows per transaction, each batch's rows locked (FOR UPDATE) while they are read and
 * written, so a value the service writes meanwhile is never overwritten with an older one. Every row is at all
 * times sealed under the old key or the new one, both readable while the old secret is still listed in
 * AUTH_SECRET_PREVIOUS: a walk stopped anywhere (a killed process, a lost connection) loses nothing, and running it
 * again skips what is already current.
 */
export async function resealColumns(
  sql: Sql,
  sealer: Sealer,
  spec: SealedColumns,
  options: ResealOptions,
): Promise<ResealCount> {
  const count: ResealCount = {
    label: spec.label,
    values: 0,
    resealed: 0,
    current: 0,
    unreadable: 0,
    unreadableKeys: [],
  };
  const names = spec.columns.map((c) => c.name);
  const select = `SELECT ${spec.key}::text AS key, ${names.join(', ')} FROM ${spec.table}
    WHERE ($1::uuid IS NULL OR ${spec.key} > $1::uuid) AND (${names.map((n) => `${n} IS NOT NULL`).join(' OR ')})
    ORDER BY ${spec.key} LIMIT $2 FOR UPDATE`;
  let after: string | null = null;
  for (;;) {
    const rows: Array<Record<string, string | null>> = await sql.transaction(async (tx) => {
      const batch = await tx.query<Record<string, string | null>>(select, [after, options.batchSize]);
      for (const row of batch) await resealRow(tx, sealer, spec, row, count);
      return batch;
    });
    if (rows.length) {
      after = rows[rows.length - 1].key;
      await options.afterBatch?.(count);
    }
    if (rows.length < options.batchSize) return count;
  }
}

async function resealRow(
  tx: Sql,
  sealer: Sealer,
  spec: SealedColumns,
  row: Record<string, string | null>,
  count: ResealCount,
): Promise<void> {
  const key = row.key as string;
  const changes: Array<[string, string]> = [];
  let unreadable = false;
  for (const column of spec.columns) {
    const value = row[column.name];
    if (value === null) continue;
    count.values++;
    const found = sealer.reseal(value, column.context(key));
    if (found.state === 'current') count.current++;
    else if (found.state === 'resealed') {
      count.resealed++;
      changes.push([column.name, found.sealed]);
    } else {
      count.unreadable++;
      unreadable = true;
    }
  }
  if (unreadable && count.unreadableKeys.length < UNREADABLE_SHOWN) count.unreadableKeys.push(key);
  if (!changes.length) return;
  const set = changes.map(([name], i) => `${name} = $${i + 2}`).join(', ');
  await tx.query(`UPDATE ${spec.table} SET ${set} WHERE ${spec.key} = $1::uuid`, [
    key,
    ...changes.map(([, sealed]) => sealed),
  ]);
}

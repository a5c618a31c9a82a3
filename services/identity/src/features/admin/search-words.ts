import type { Sql } from '../../shared/sql';

/** Word groups (a field's word and its slots) read per transaction by `pruneSearchWords`. */
export const PRUNE_BATCH = 2000;

/**
 * Removes from `search_words` the words nobody holds any more (their counts sum to 0 over the slots: a deleted
 * user's words were added in the slot of the transaction that made them and taken off in the slot of the one that
 * deleted them, so neither row is 0 alone). They match no user, but they take space and trigram lookups.
 *
 * Batches of `batch` words in primary key order, each in its own short transaction that first locks every row of
 * the user counter: each statement that writes users takes its transaction's counter row before any word row of
 * that slot (migration 1795700000100), so while the batch holds all of them no word count moves, and a zero sum
 * read is still zero when its rows are deleted. Writes to users wait for one batch at a time (milliseconds), never
 * for the whole walk. Answers how many words were removed.
 */
export async function pruneSearchWords(sql: Sql, batch = PRUNE_BATCH): Promise<number> {
  let after: { field: number; word: string } = { field: -1, word: '' };
  let removed = 0;
  for (;;) {
    const step = await sql.transaction(async (tx) => {
      await tx.query('SELECT slot FROM user_counts ORDER BY slot FOR UPDATE');
      const groups = await tx.query<{ field: number; word: string; held: string }>(
        `SELECT field, word, sum(n) AS held FROM search_words WHERE (field, word) > ($1, $2)
         GROUP BY field, word ORDER BY field, word LIMIT $3`,
        [after.field, after.word, batch],
      );
      const unheld = groups.filter((g) => Number(g.held) === 0);
      if (unheld.length)
        await tx.query(
          `DELETE FROM search_words sw USING unnest($1::smallint[], $2::text[]) z (field, word)
           WHERE sw.field = z.field AND sw.word = z.word`,
          [unheld.map((g) => g.field), unheld.map((g) => g.word)],
        );
      return { groups, removed: unheld.length };
    });
    removed += step.removed;
    if (step.groups.length < batch) return removed;
    after = step.groups[step.groups.length - 1];
  }
}

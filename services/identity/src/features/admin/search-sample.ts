import type { Sql } from '../../shared/sql';
import type { SearchField } from './list-query';
import { type SampledTrigrams, valueTrigrams } from './search-trigrams';

/** Below this many users every GIN scan is cheap: no sample is taken and search texts are used whole. */
const MIN_USERS = 20_000;
/** Rows sampled (about): one sampled row stands for 50 of 200,000 users. */
const SAMPLE_ROWS = 4_000;

type Sampled = Record<SearchField, SampledTrigrams | null>;

/**
 * Which sampled rows hold which trigrams of the users' emails and names, from a row sample taken in the background
 * at most every `maxAgeMs` (the first search after start or expiry uses the previous sample, or none, while it is
 * taken). Used only to choose what the trigram index looks up (search-trigrams.ts); never changes an answer.
 * About 20 trigrams per value: some 80,000 row numbers per field held.
 */
export class TrigramSample {
  private sampled: Sampled | null = null;
  private takenAt = Number.NEGATIVE_INFINITY;
  private taking: Promise<void> | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
    private readonly maxAgeMs = 10 * 60_000,
    private readonly minUsers = MIN_USERS,
  ) {}

  /** The latest sample of `column` (null before the first one, and below `minUsers`). */
  of(column: SearchField): SampledTrigrams | null {
    if (this.now() - this.takenAt > this.maxAgeMs && !this.taking)
      this.taking = this.take()
        .catch(() => {}) // a failed sample leaves the previous one; searches work without any
        .finally(() => {
          this.taking = null;
        });
    return this.sampled?.[column] ?? null;
  }

  /** Takes a sample now (the background refresh; tests call it directly). */
  async take(): Promise<void> {
    this.takenAt = this.now();
    const [{ estimate }] = await this.sql.query<{ estimate: number }>(
      "SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = 'users'::regclass",
    );
    if (!(estimate >= this.minUsers)) {
      this.sampled = { email: null, name: null };
      return;
    }
    const percent = Math.min(100, (100 * SAMPLE_ROWS) / estimate);
    const rows = await this.sql.query<{ email: string; name: string }>(
      'SELECT email, name_fold AS name FROM users TABLESAMPLE BERNOULLI ($1)',
      [percent],
    );
    const scale = rows.length ? estimate / rows.length : 0;
    const of = (column: SearchField) =>
      postingsOf(
        rows.map((r) => r[column]),
        scale,
      );
    this.sampled = { email: of('email'), name: of('name') };
  }
}

/** The postings of `values` (row = index in `values`), each row standing for `scale` users. */
export function postingsOf(values: string[], scale: number): SampledTrigrams {
  const postings = new Map<string, number[]>();
  values.forEach((value, row) => {
    for (const t of valueTrigrams(value)) {
      const list = postings.get(t);
      if (list) list.push(row);
      else postings.set(t, [row]);
    }
  });
  return { rows: values.length, scale, postings };
}

import type { Sql } from '../../shared/sql';
import type { SearchField } from './list-query';
import { valueTrigrams } from './search-trigrams';

/** Below this many users every GIN scan is cheap: no sample is taken and search texts are used whole. */
const MIN_USERS = 20_000;
/** Rows sampled (about): enough to tell a trigram in half the rows from one in a third. */
const SAMPLE_ROWS = 4_000;
/** A trigram in more than this share of the rows is not worth an index lookup. */
const FREQUENT_SHARE = 0.5;

type Frequent = Record<SearchField, Set<string>>;

/**
 * The trigrams found in more than half of the users' emails and names, from a row sample taken in the background
 * at most every `maxAgeMs` (the first search after start or expiry uses the previous sample, or none, while it is
 * taken). Used only to choose what the trigram index looks up (search-trigrams.ts); never changes an answer.
 */
export class TrigramSample {
  private frequent: Frequent | null = null;
  private takenAt = Number.NEGATIVE_INFINITY;
  private taking: Promise<void> | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
    private readonly maxAgeMs = 10 * 60_000,
    private readonly minUsers = MIN_USERS,
  ) {}

  /** Whether `trigram` is frequent in `column`, by the latest sample (false for all before the first one). */
  frequentIn(column: SearchField): (trigram: string) => boolean {
    if (this.now() - this.takenAt > this.maxAgeMs && !this.taking)
      this.taking = this.take()
        .catch(() => {}) // a failed sample leaves the previous one; searches work without any
        .finally(() => {
          this.taking = null;
        });
    const set = this.frequent?.[column];
    return set ? (trigram) => set.has(trigram) : () => false;
  }

  /** Takes a sample now (the background refresh; tests call it directly). */
  async take(): Promise<void> {
    this.takenAt = this.now();
    const [{ estimate }] = await this.sql.query<{ estimate: number }>(
      "SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = 'users'::regclass",
    );
    if (!(estimate >= this.minUsers)) {
      this.frequent = { email: new Set(), name: new Set() };
      return;
    }
    const percent = Math.min(100, (100 * SAMPLE_ROWS) / estimate);
    const rows = await this.sql.query<{ email: string; name: string }>(
      'SELECT email, name FROM users TABLESAMPLE BERNOULLI ($1)',
      [percent],
    );
    this.frequent = { email: frequentOf(rows.map((r) => r.email)), name: frequentOf(rows.map((r) => r.name)) };
  }
}

function frequentOf(values: string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const value of values) for (const t of valueTrigrams(value)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n > values.length * FREQUENT_SHARE).map(([t]) => t));
}

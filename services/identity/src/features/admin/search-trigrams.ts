/**
 * What the trigram index should look up for a list-users search text (`indexProbes`), from pg_trgm's rules for
 * the trigrams of a pattern and of a stored value. Pure: the sampled trigrams come from `TrigramSample`
 * (search-sample.ts).
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** Letters NFD leaves whole that unaccent still folds. */
const UNDECOMPOSED: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe' };

/**
 * Lowercase without accents, close to the database's search_fold (lower(unaccent(…))) for the letters names
 * usually hold: names are searched folded (list-query.ts). Only the choice of probes uses it, never an answer.
 */
const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłđßæœ]/g, (c) => UNDECOMPOSED[c]);

/** The trigrams pg_trgm takes from the literal text of a `%text%` pattern: words padded where the text shows an edge. */
export function patternTrigrams(text: string): string[] {
  const trigrams: string[] = [];
  const folded = fold(text);
  for (const match of folded.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    const padded = `${start > 0 ? '  ' : ''}${match[0]}${end < folded.length ? ' ' : ''}`;
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.push(padded.slice(i, i + 3));
  }
  return trigrams;
}

/** The distinct trigrams of a stored value, padded as pg_trgm pads every word of a value ("  word "). */
export function valueTrigrams(value: string): Set<string> {
  const trigrams = new Set<string>();
  for (const [word] of fold(value).matchAll(WORD)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
  }
  return trigrams;
}

/** Trigrams of a row sample: for each trigram, the (ascending) numbers of the sampled rows that hold it. */
export interface SampledTrigrams {
  /** Rows in the sample. */
  rows: number;
  /** Users each sampled row stands for (the table's row estimate / rows). */
  scale: number;
  postings: ReadonlyMap<string, readonly number[]>;
}

/** Looking up one more probe costs about as much as rechecking this many rows (GIN posting list vs heap row). */
const PROBE_WORTH_ROWS = 400;
const MAX_PROBES = 3;
/** Probes are taken from the text's first characters only: any part of the text is a valid probe. */
const PROBE_TEXT_CHARS = 64;

/** `sorted` ∩ `list` (both ascending). */
function intersect(sorted: readonly number[], list: readonly number[]): number[] {
  const [small, large] = sorted.length <= list.length ? [sorted, list] : [list, sorted];
  const out: number[] = [];
  let from = 0;
  for (const n of small) {
    let lo = from;
    let hi = large.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (large[mid] < n) lo = mid + 1;
      else hi = mid;
    }
    if (lo < large.length && large[lo] === n) out.push(n);
    from = lo;
  }
  return out;
}

/**
 * The parts of a search text the trigram index should look up, each as its own `%probe%` condition in the same
 * GIN scan. A matching row contains every part of the text, so any parts are correct, and the whole text is still
 * checked on every row found; the choice only sets the cost. pg_trgm reads the posting list of every trigram of a
 * pattern, and a trigram found in many rows (`  1` in most numbered names, `com` of a common domain) is read at
 * length for almost nothing ruled out; three characters of the text that hold a rare trigram rule out nearly as
 * much at a fraction of the cost ("walker 19": ` 19` and `alk`, 0.4 ms, against 1.8 ms for all seven trigrams, with
 * 200,000 users). Greedy on the sample: each probe is the three characters of the text that leave the fewest
 * sampled rows, until the next one would rule out fewer than PROBE_WORTH_ROWS users. Without a sample (small
 * tables, or none taken yet) the whole text is looked up. Pure.
 */
export function indexProbes(text: string, sample: SampledTrigrams | null): string[] {
  if (!sample || sample.rows === 0) return [text];
  const head = [...text].slice(0, PROBE_TEXT_CHARS);
  const candidates = new Map<string, readonly number[]>();
  for (let i = 0; i + 3 <= head.length; i++) {
    const window = head.slice(i, i + 3).join('');
    const trigrams = patternTrigrams(window);
    if (!trigrams.length || candidates.has(window)) continue;
    let rows: readonly number[] | undefined;
    for (const t of trigrams) {
      const list = sample.postings.get(t) ?? [];
      rows = rows === undefined ? list : intersect(rows, list);
    }
    candidates.set(window, rows ?? []);
  }
  if (!candidates.size) return [text];
  const probes: string[] = [];
  let left: readonly number[] | null = null; // null: every sampled row
  while (probes.length < MAX_PROBES) {
    let best: [string, readonly number[]] | null = null;
    for (const [window, rows] of candidates) {
      const kept: readonly number[] = left === null ? rows : intersect(left, rows);
      if (!best || kept.length < best[1].length) best = [window, kept];
    }
    if (!best) break;
    const before = left === null ? sample.rows : left.length;
    if (probes.length && (before - best[1].length) * sample.scale < PROBE_WORTH_ROWS) break;
    probes.push(best[0]);
    candidates.delete(best[0]);
    left = best[1];
    if (!left.length) break;
  }
  return probes.length === 1 && probes[0] === text ? [text] : probes;
}

/**
 * Which part of a list-users search text the trigram index should look up. pg_trgm turns `%text%` into the
 * trigrams of its words and the GIN scan reads the whole posting list of each; a trigram found in most rows
 * (`use` when every address starts with "user", `com` of a common domain) costs a read of nearly every row id
 * and rules almost nothing out. Dropping such trigrams from the ends of the text keeps the index lookup
 * selective and cheap; the full condition is still checked on every row, so answers never change.
 * Pure: the frequencies come from `TrigramSample` (search-sample.ts).
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** The trigrams pg_trgm takes from the literal text of a `%text%` pattern: words padded where the text shows an edge. */
export function patternTrigrams(text: string): string[] {
  const trigrams: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    const padded = `${start > 0 ? '  ' : ''}${match[0]}${end < text.length ? ' ' : ''}`;
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.push(padded.slice(i, i + 3));
  }
  return trigrams;
}

/** The distinct trigrams of a stored value, padded as pg_trgm pads every word of a value ("  word "). */
export function valueTrigrams(value: string): Set<string> {
  const trigrams = new Set<string>();
  for (const [word] of value.toLowerCase().matchAll(WORD)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
  }
  return trigrams;
}

/** `text` less the leading and trailing characters whose trigrams are all frequent, keeping at least one trigram. */
export function indexedPart(text: string, frequent: (trigram: string) => boolean): string {
  let part = text;
  for (let changed = true; changed; ) {
    changed = false;
    const current = patternTrigrams(part);
    for (const next of [part.slice(1), part.slice(0, -1)]) {
      const kept = new Set(patternTrigrams(next));
      if (kept.size && current.every((t) => kept.has(t) || frequent(t))) {
        part = next;
        changed = true;
        break;
      }
    }
  }
  return part;
}

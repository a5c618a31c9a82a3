/**
 * PostgreSQL text (and jsonb) cannot hold U+0000, and UTF-8 has no encoding for a lone UTF-16 surrogate: the
 * first makes the query fail, the second is stored as U+FFFD (or fails inside jsonb). Such input is refused
 * before it reaches a route, wherever it sits: a value, an object key, any depth.
 */
type WellFormed = { isWellFormed(): boolean };

/** `isWellFormed` (ES2024, Node >= 20) finds a lone surrogate natively: this check runs on every request's headers. */
export const isStorableText = (value: string): boolean =>
  !value.includes('\u0000') && (value as unknown as WellFormed).isWellFormed();

/** The dotted path of the first string (or object key) in `value` that PostgreSQL cannot store, or null. */
export function unstorableField(value: unknown, path: string): string | null {
  const found = find(value, 0);
  return found === null ? null : [path, ...found.reverse()].join('.');
}

/** Recursion this deep, then a walk with its own stack: a 64 KiB body can nest deeper than the call stack allows. */
const MAX_DEPTH = 200;

/**
 * The path (below `value`, innermost key first) of the first unstorable text; built only when there is one (a
 * per-request check), one push per level.
 */
function find(value: unknown, depth: number): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : [];
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return findDeep(value);
  // Plain objects only (parsed JSON, headers, cookies): no inherited enumerable keys to skip.
  for (const key in value) {
    if (!isStorableText(key)) return [];
    const below = find((value as Record<string, unknown>)[key], depth + 1);
    if (below) {
      below.push(key);
      return below;
    }
  }
  return null;
}

interface Step {
  key: string;
  parent: Step | null;
}

function findDeep(value: object): string[] | null {
  const pathOf = (step: Step | null): string[] => {
    const keys: string[] = [];
    for (let at = step; at; at = at.parent) keys.push(at.key);
    return keys;
  };
  const stack: Array<[unknown, Step | null]> = [[value, null]];
  while (stack.length > 0) {
    const [item, step] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return pathOf(step);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        if (!isStorableText(key)) return pathOf(step);
        stack.push([(item as Record<string, unknown>)[key], { key, parent: step }]);
      }
    }
  }
  return null;
}

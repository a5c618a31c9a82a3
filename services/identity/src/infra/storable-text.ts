/**
 * PostgreSQL text (and jsonb) cannot hold U+0000, and UTF-8 has no encoding for a lone UTF-16 surrogate: the
 * first makes the query fail, the second is stored as U+FFFD (or fails inside jsonb). Such input is refused
 * before it reaches a route, wherever it sits: a value, an object key, any depth.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character refused
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/**
 * The dotted path of the first string (or object key) in `value` that PostgreSQL cannot store, or null. A walk
 * with its own stack: a 64 KiB body can nest far deeper than the call stack allows.
 */
export function unstorableField(value: unknown, path: string): string | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return at;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (!isStorableText(key)) return at;
        stack.push([child, `${at}.${key}`]);
      }
    }
  }
  return null;
}

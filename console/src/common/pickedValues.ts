/**
 * A field that takes several values keeps them as one text in PromptValues, comma-separated (the form the API
 * takes a role list in): these convert between that text and the picker's list.
 */

/** The values a comma-separated text holds, trimmed, empty ones dropped. */
export function splitPicked(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

/** Picked values as one text in the options' order, whatever the order of picking; values no option has come last. */
export function joinPicked(picked: readonly string[], options: readonly { value: string }[]): string {
  const known = options.map((o) => o.value).filter((value) => picked.includes(value));
  const unknown = picked.filter((value) => !options.some((o) => o.value === value));
  return [...new Set([...known, ...unknown])].join(',');
}

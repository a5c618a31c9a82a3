import { fail } from '../errors';

/**
 * An organization slug in its one stored form: Unicode NFKC (fullwidth, ligature and other compatibility forms
 * become their plain letters), then lower case, then trimmed, so "ACME", "ａｃｍｅ" and " acme " are one slug and
 * the uniqueness check (spec §5) sees look-alikes as the same. The rule is idempotent (a stored slug normalizes to
 * itself; slug.test.ts checks every code point), so lookups may normalize what they are given.
 * Migration 1795800000420 brought the slugs stored before this rule to this form.
 */
export function normalizeSlug(slug: string): string {
  return slug.normalize('NFKC').toLowerCase().trim();
}

/** A slug from a request, normalized; one that is empty once normalized is refused (VALIDATION_ERROR). */
export function slugOf(slug: string, field: string): string {
  const normalized = normalizeSlug(slug);
  if (!normalized) fail('VALIDATION_ERROR', [{ field, problem: 'must not be empty or only spaces' }]);
  return normalized;
}

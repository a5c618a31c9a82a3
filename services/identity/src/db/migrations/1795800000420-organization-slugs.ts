import type { MigrationInterface, QueryRunner } from 'typeorm';
import { normalizeSlug } from '../../shared/slug';

interface Row {
  id: string;
  slug: string;
}

/**
 * Organization slugs are stored normalized from now on (shared/slug.ts: NFKC, lower case,
 * trimmed), so that look-alikes ("ACME", "ａｃｍｅ") are one slug for the uniqueness check. This brings the stored
 * slugs to that form, in JavaScript so that it is exactly the rule the service applies (PostgreSQL's lower() depends
 * on the database's locale).
 *
 * Two stored slugs that become one (or a slug that becomes empty) cannot both be kept, and which organization loses
 * its slug is an operator's decision: the migration then changes nothing and fails, naming every such organization
 * and the UPDATE statements that would fix it (README, Operations). Writes to organizations wait meanwhile
 * (EXCLUSIVE lock; reads go on), so no slug is created between the check and the update.
 */
export class OrganizationSlugs1795800000420 implements MigrationInterface {
  name = 'OrganizationSlugs1795800000420';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE "organizations" IN EXCLUSIVE MODE');
    const rows: Row[] = await queryRunner.query('SELECT id, slug FROM "organizations" ORDER BY created_at, id');
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = normalizeSlug(row.slug);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const conflicts = [...groups].filter(([key, group]) => group.length > 1 || key === '');
    if (conflicts.length) throw new Error(conflictReport(conflicts, new Set(groups.keys())));
    const changed = rows.filter((row) => normalizeSlug(row.slug) !== row.slug);
    if (!changed.length) return;
    await queryRunner.query(
      `UPDATE "organizations" o SET slug = c.slug FROM unnest($1::uuid[], $2::text[]) AS c(id, slug) WHERE o.id = c.id`,
      [changed.map((row) => row.id), changed.map((row) => normalizeSlug(row.slug))],
    );
  }

  /** The slugs as they were typed are not kept: reverting leaves them normalized (still valid slugs). */
  public async down(): Promise<void> {}
}

const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * Every group of organizations whose slugs become one: ids and slugs as stored, and an UPDATE per organization but
 * the oldest of its group that gives it a free normalized slug (a suggestion: any free slug will do).
 */
function conflictReport(conflicts: Array<[string, Row[]]>, taken: Set<string>): string {
  const lines = [
    'Organization slugs collide once normalized (Unicode NFKC, lower case, trimmed); no slug was changed.',
    'Give every organization listed but the first of its group another slug, then run the migrations again:',
  ];
  const fixes: string[] = [];
  for (const [key, group] of conflicts) {
    lines.push(
      `  ${JSON.stringify(key)}: ${group.map((row) => `${row.id} (slug ${JSON.stringify(row.slug)})`).join(', ')}`,
    );
    const renamed = key === '' ? group : group.slice(1);
    for (const row of renamed) {
      let n = 2;
      const stem = key || 'organization';
      while (taken.has(`${stem}-${n}`)) n++;
      taken.add(`${stem}-${n}`);
      fixes.push(`UPDATE organizations SET slug = ${quote(`${stem}-${n}`)} WHERE id = ${quote(row.id)};`);
    }
  }
  return [...lines, 'For example:', ...fixes.map((fix) => `  ${fix}`)].join('\n');
}

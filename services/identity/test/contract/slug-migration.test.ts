import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../src/db/data-source';
import { OrganizationSlugs1795800000420 } from '../../src/db/migrations/1795800000420-organization-slugs';
import { normalizeSlug } from '../../src/shared/slug';
import { scratchDatabase } from '../setup/scratch-database';

/**
 * Migration 1795800000420 brings stored organization slugs to their normalized form (NFKC, lower case, trimmed).
 * Slugs that would become one make it change nothing and fail, naming them and the statements that fix it.
 */
/** Fullwidth letters: NFKC makes them plain ASCII. */
const WIDE = 'ａｃｍｅ';
const databaseUrl = scratchDatabase('slugs');

/** The schema as it was before the slug migration: every other migration applied. */
async function schemaBefore(): Promise<DataSource> {
  const all = createDataSource({ url: databaseUrl() });
  const before = new DataSource({
    ...all.options,
    migrations: (all.options.migrations as Array<new () => unknown>).filter(
      (m) => m !== OrganizationSlugs1795800000420,
    ),
  } as typeof all.options);
  await before.initialize();
  await before.runMigrations({ transaction: 'all' });
  await before.destroy();
  const ds = createDataSource({ url: databaseUrl() });
  await ds.initialize();
  return ds;
}

async function insert(ds: DataSource, slugs: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  let at = Date.parse('2026-01-01T00:00:00Z');
  for (const slug of slugs) {
    ids[slug] = randomUUID();
    at += 1000;
    await ds.query('INSERT INTO organizations (id, name, slug, created_at) VALUES ($1, $2, $3, $4)', [
      ids[slug],
      `Org ${slug}`,
      slug,
      new Date(at),
    ]);
  }
  return ids;
}

const slugs = async (ds: DataSource): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await ds.query('SELECT id, slug FROM organizations')).map((r: { id: string; slug: string }) => [r.id, r.slug]),
  );

it('normalizes the stored slugs; on a collision it changes nothing and names the organizations and the fix', async () => {
  const ds = await schemaBefore();
  try {
    expect(await ds.showMigrations()).toBe(true);
    const plain = await insert(ds, ['already-fine', 'Plain-Caps', 'ｆｕｌｌ-ｗｉｄｔｈ', ' spaced ']);
    const clash = await insert(ds, ['acme', 'ACME', WIDE, 'Beta', 'beta ']);
    const before = await slugs(ds);

    // TypeORM prints a failed migration's error (what `cli.js migrate` shows the operator); kept off the test output.
    const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
    const error = await ds.runMigrations({ transaction: 'all' }).then(
      () => null,
      (e: Error) => e,
    );
    const output = printed.mock.calls.flat().join('\n');
    printed.mockRestore();
    expect(output).toContain('Organization slugs collide once normalized');
    expect(error?.message).toContain('Organization slugs collide once normalized');
    for (const slug of Object.keys(clash))
      expect(error?.message).toContain(`${clash[slug]} (slug ${JSON.stringify(slug)})`);
    // Nothing changed and the migration is still pending.
    expect(await slugs(ds)).toEqual(before);
    expect(await ds.showMigrations()).toBe(true);
    // The statements it suggests keep the oldest of each group and give the others free slugs.
    const fixes = error!.message.split('\n').filter((line) => line.trim().startsWith('UPDATE organizations'));
    expect(fixes.map((f) => f.trim())).toEqual([
      `UPDATE organizations SET slug = 'acme-2' WHERE id = '${clash.ACME}';`,
      `UPDATE organizations SET slug = 'acme-3' WHERE id = '${clash[WIDE]}';`,
      `UPDATE organizations SET slug = 'beta-2' WHERE id = '${clash['beta ']}';`,
    ]);
    for (const fix of fixes) await ds.query(fix);

    await ds.runMigrations({ transaction: 'all' });
    expect(await ds.showMigrations()).toBe(false);
    expect(await slugs(ds)).toEqual({
      [plain['already-fine']]: 'already-fine',
      [plain['Plain-Caps']]: 'plain-caps',
      [plain['ｆｕｌｌ-ｗｉｄｔｈ']]: 'full-width',
      [plain[' spaced ']]: 'spaced',
      [clash.acme]: 'acme',
      [clash.ACME]: 'acme-2',
      [clash[WIDE]]: 'acme-3',
      [clash.Beta]: 'beta',
      [clash['beta ']]: 'beta-2',
    });
    for (const slug of Object.values(await slugs(ds))) expect(normalizeSlug(slug)).toBe(slug);
  } finally {
    await ds.destroy();
  }
});

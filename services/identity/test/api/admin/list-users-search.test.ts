import { randomBytes } from 'node:crypto';
import { planListUsers } from '../../../src/features/admin/list-query';
import { AdminRepository } from '../../../src/features/admin/repository';
import { TrigramSample } from '../../../src/features/admin/search-sample';
import { valueTrigrams } from '../../../src/features/admin/search-trigrams';
import { startTestApp, type TestApp } from '../../setup/app';

let t: TestApp;
const tag = `ls${randomBytes(4).toString('hex')}`;
beforeAll(async () => {
  t = await startTestApp();
  await t.ctx.sql.query(
    `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'u' || g || '.${tag}@x.test', 'Name ' || g || ' ${tag}'
     FROM generate_series(1, 40) g`,
  );
});
afterAll(() => t.close());

describe('list-users: looking up parts of the search text', () => {
  it('answers the same users and total when the index looks up only part of the text', async () => {
    const repo = new AdminRepository(t.ctx.sql);
    for (const [searchValue, searchField, searchOperator] of [
      [`1.${tag}`, 'email', 'contains'],
      [`u1`, 'email', 'starts_with'],
      [`${tag}@x.test`, 'email', 'ends_with'],
      [`Name 3`, 'name', 'contains'],
      [`Náme 3`, 'any', 'contains'], // both fields, the name folded
      [`u2`, 'any', 'starts_with'],
    ]) {
      const query = { searchValue, searchField, searchOperator, sortBy: 'email', limit: 50 };
      const whole = planListUsers(query)!;
      const part = planListUsers(query, (_, text) => [text.slice(1, 4), text.slice(-3)])!; // any parts of the text
      expect(part.where).toMatch(/\|\| ''\) LIKE (lower|search_fold)\(/);
      const [a, b] = [await repo.listUsers(whole), await repo.listUsers(part)];
      expect(b).toEqual(a);
      expect(a.total).toBeGreaterThan(0);
    }
  });

  it('ignores a part that is not in the text', () => {
    const plan = planListUsers({ searchValue: 'abcdef' }, () => ['zzz', ''])!;
    expect(plan.params).toEqual(['%abcdef%']);
  });
});

describe('list-users: the trigram sample', () => {
  it('holds which sampled rows have which trigrams, sampled in the background on first use', async () => {
    let now = 0;
    const sample = new TrigramSample(t.ctx.sql, () => now, 60_000, 0);
    expect(sample.of('email')).toBeNull(); // no sample yet: searches look up their whole text
    await t.ctx.sql.query('ANALYZE users'); // the row estimate the sample size comes from
    await sample.take(); // what the first call started, taken again to await it (BERNOULLI at 100% below 4,000 rows)
    const rows = await t.ctx.sql.query<{ email: string; name: string }>('SELECT email, name FROM users');
    for (const column of ['email', 'name'] as const) {
      const counts = new Map<string, number>();
      for (const r of rows) for (const tri of valueTrigrams(r[column])) counts.set(tri, (counts.get(tri) ?? 0) + 1);
      const sampled = sample.of(column)!;
      expect(sampled.rows).toBeGreaterThan(0);
      expect(sampled.scale).toBeGreaterThan(0);
      for (const [tri, n] of counts) {
        const list = sampled.postings.get(tri) ?? [];
        expect(list.every((row, i) => row < sampled.rows && (i === 0 || row > list[i - 1]))).toBe(true);
        // the share of sampled rows holding it is the share of all rows (other test files write users meanwhile)
        expect([tri, Math.abs(list.length / sampled.rows - n / rows.length) < 0.05]).toEqual([tri, true]);
      }
    }
    now = 30_000;
    const spy = jest.spyOn(sample, 'take');
    sample.of('name');
    expect(spy).not.toHaveBeenCalled(); // fresh: not sampled again
    now = 61_000;
    sample.of('name');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

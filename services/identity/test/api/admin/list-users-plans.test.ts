import { randomBytes, randomUUID } from 'node:crypto';
import { planListUsers } from '../../../src/features/admin/list-query';
import { listUsersSql, walkIsCheaper } from '../../../src/features/admin/repository';
import { startTestApp, type TestApp } from '../../setup/app';

let t: TestApp;
const tag = `lp${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The counter and a real count, read in one statement (one snapshot), while other test files write users too. */
async function counterAndRows(): Promise<[number, number]> {
  const [row] = await t.ctx.sql.query<{ c: string; r: string }>(
    'SELECT (SELECT sum(n) FROM user_counts) AS c, (SELECT count(*) FROM users) AS r',
  );
  return [Number(row.c), Number(row.r)];
}

describe('list-users: the user counter kept by triggers', () => {
  it('stays exact through parallel single inserts, a bulk insert, a bulk delete and parallel deletes', async () => {
    const ids = Array.from({ length: 24 }, () => randomUUID());
    await Promise.all(
      ids.map((id, i) =>
        t.ctx.sql.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [id, `p${i}.${tag}@x.test`, tag]),
      ),
    );
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'b' || g || '.${tag}@x.test', '${tag}' FROM generate_series(1, 40) g`,
    );
    let [counter, rows] = await counterAndRows();
    expect(counter).toBe(rows);
    await t.ctx.sql.query("DELETE FROM users WHERE email LIKE 'b%' AND name = $1", [tag]);
    await Promise.all(ids.map((id) => t.ctx.sql.query('DELETE FROM users WHERE id = $1', [id])));
    [counter, rows] = await counterAndRows();
    expect(counter).toBe(rows);
    const left = await t.ctx.sql.query<{ n: string }>('SELECT count(*) AS n FROM users WHERE name = $1', [tag]);
    expect(Number(left[0].n)).toBe(0);
  });
});

describe('list-users: the two page plans', () => {
  it('walk the sort index only when that reads fewer rows than the matches, and only on an indexed sort', () => {
    const plan = (q: Record<string, string>) => planListUsers({ searchValue: 'x', limit: 100, ...q })!;
    expect(walkIsCheaper(plan({}), 10_000, 200_000)).toBe(true); // ≈ 2,000 rows walked < 10,000 matches
    expect(walkIsCheaper(plan({}), 111, 200_000)).toBe(false);
    expect(walkIsCheaper(plan({ offset: '5000' }), 10_000, 200_000)).toBe(false); // ≈ 102,000 rows walked
    expect(walkIsCheaper(plan({ sortBy: 'name' }), 10_000, 200_000)).toBe(true);
    expect(walkIsCheaper(plan({ sortBy: 'email' }), 10_000, 200_000)).toBe(false); // no (email, id) index
    expect(walkIsCheaper(plan({ sortBy: 'role' }), 10_000, 200_000)).toBe(false);
  });

  it('answer the same rows in the same order for every sort and page', async () => {
    const at = Date.parse('2031-01-01T00:00:00Z');
    for (let i = 0; i < 30; i++) {
      await t.ctx.sql.query('INSERT INTO users (id, email, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [
        randomUUID(),
        `${String.fromCharCode(97 + (i % 26))}${i}.${tag}@x.test`,
        `${tag} ${['Zed', 'Amy', 'Kim'][i % 3]}`,
        new Date(at + (i % 7) * 60_000), // ties on created_at: the id breaks them
      ]);
    }
    for (const sortBy of ['createdAt', 'name', 'email', 'id']) {
      for (const sortDirection of ['asc', 'desc']) {
        for (const offset of ['0', '7', '29']) {
          const plan = planListUsers({
            searchValue: tag,
            searchField: 'email',
            sortBy,
            sortDirection,
            limit: 8,
            offset,
          })!;
          const sql = listUsersSql(plan);
          const walked = await t.ctx.sql.query<{ id: string }>(sql.walk.text, sql.walk.params);
          const sorted = await t.ctx.sql.query<{ id: string }>(sql.page.text, sql.page.params);
          expect(walked.length).toBe(offset === '29' ? 1 : 8);
          expect(sorted.map((r) => r.id)).toEqual(walked.map((r) => r.id));
        }
      }
    }
  });
});

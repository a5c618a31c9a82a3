import { randomBytes, randomUUID } from 'node:crypto';
import { planListUsers } from '../../../src/features/admin/list-query';
import { AdminRepository, listUsersSql, walkIsCheaper } from '../../../src/features/admin/repository';
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
        for (const offset of ['0', '7', '29', '30']) {
          const plan = planListUsers({
            searchValue: tag,
            searchField: 'email',
            sortBy,
            sortDirection,
            limit: 8,
            offset,
          })!;
          const sql = listUsersSql(plan);
          type Row = { id: string | null; total: string; users: string };
          const walked = await t.ctx.sql.query<Row>(sql.walked.text, sql.walked.params);
          const sorted = await t.ctx.sql.query<Row>(sql.sorted.text, sql.sorted.params);
          const ids = (rows: Row[]) => rows.filter((r) => r.id !== null).map((r) => r.id);
          expect(ids(walked)).toHaveLength({ '29': 1, '30': 0 }[offset] ?? 8);
          expect(ids(sorted)).toEqual(ids(walked));
          expect([...new Set([...walked, ...sorted].map((r) => r.total))]).toEqual(['30']); // an empty page too
          const alone = await t.ctx.sql.query<{ id: string }>(sql.walk.text, sql.walk.params);
          expect(alone.map((r) => r.id)).toEqual(ids(walked));
        }
      }
    }
  });

  it('answer a search by the plan its last answer called for: sorted first, walked once many rows match', async () => {
    const many = `lm${randomBytes(4).toString('hex')}`;
    // 300 matches and a page of 1: walking reads about users/300 rows, sorting reads 300 (while users < 90,000)
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'm' || g || '.${many}@x.test', '${many} ' || g
       FROM generate_series(1, 300) g`,
    );
    const repo = new AdminRepository(t.ctx.sql);
    const query = jest.spyOn(t.ctx.sql, 'query');
    try {
      const plan = planListUsers({ searchValue: many, searchField: 'name', limit: 1, offset: 5 })!;
      const answers = [await repo.listUsers(plan), await repo.listUsers(plan)];
      const narrow = planListUsers({ searchValue: `${many} 17`, searchField: 'name', limit: 1 })!; // 17, 170–179
      const narrowAnswers = [await repo.listUsers(narrow), await repo.listUsers(narrow)];
      const statements = query.mock.calls.map(([text]) => (text.includes('MATERIALIZED') ? 'sorted' : 'walked'));
      expect(statements).toEqual(['sorted', 'walked', 'sorted', 'sorted']);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0].total).toBe(300);
      expect(answers[0].users).toHaveLength(1);
      expect(narrowAnswers[1]).toEqual(narrowAnswers[0]);
      expect(narrowAnswers[0].total).toBe(11);
    } finally {
      query.mockRestore();
    }
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { planListUsers } from '../../../src/features/admin/list-query';
import { AdminRepository, listUsersSql, USER_COUNTER, walkIsCheaper } from '../../../src/features/admin/repository';
import type { Sql } from '../../../src/shared/sql';
import { startTestApp, type TestApp } from '../../setup/app';
import { inOneSnapshot as inSnapshot } from '../../setup/snapshot';

let t: TestApp;
const tag = `lp${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Calls = Array<[text: string, params?: unknown[]]>;

/** Runs `work` with the statements the service's SQL runs meanwhile recorded as [text, params]. */
async function recording(work: (calls: Calls) => Promise<void>): Promise<void> {
  const query = jest.spyOn(t.ctx.sql, 'query');
  try {
    await work(query.mock.calls as Calls);
  } finally {
    query.mockRestore();
  }
}

/** 300 users `<letter><n>.<word>@x.test` named `<word> <n>` (n = 1–300), in one statement. */
const insertNumbered = (letter: string, word: string) =>
  t.ctx.sql.query(
    `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), '${letter}' || g || '.${word}@x.test', '${word} ' || g
     FROM generate_series(1, 300) g`,
  );

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
    await insertNumbered('m', many);
    const repo = new AdminRepository(t.ctx.sql);
    await recording(async (calls) => {
      const plan = planListUsers({ searchValue: many, searchField: 'name', limit: 1, offset: 5 })!;
      const answers = [await repo.listUsers(plan), await repo.listUsers(plan)];
      const narrow = planListUsers({ searchValue: `${many} 17`, searchField: 'name', limit: 1 })!; // 17, 170–179
      const narrowAnswers = [await repo.listUsers(narrow), await repo.listUsers(narrow)];
      const statements = calls.map(([text]) => (text.includes('MATERIALIZED') ? 'sorted' : 'walked'));
      expect(statements).toEqual(['sorted', 'walked', 'sorted', 'sorted']);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0].total).toBe(300);
      expect(answers[0].users).toHaveLength(1);
      expect(narrowAnswers[1]).toEqual(narrowAnswers[0]);
      expect(narrowAnswers[0].total).toBe(11);
    });
  });
});

const inOneSnapshot = <T>(work: (tx: Sql) => Promise<T>) => inSnapshot(t.ctx.sql, work);

const counter = async (sql: Sql) => {
  const [row] = await sql.query<{ users: string; stamp: string }>(USER_COUNTER);
  return { users: Number(row.users), stamp: BigInt(row.stamp) };
};

describe('list-users: a total reused while no user changed', () => {
  it('grows the change stamp in each statement that writes users, and not for an update of no row', async () => {
    await inOneSnapshot(async (tx) => {
      const id = randomUUID();
      const before = await counter(tx);
      await tx.query('UPDATE users SET name = name WHERE id = $1', [id]);
      expect(await counter(tx)).toEqual(before);
      await tx.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [id, `s.${tag}@x.test`, tag]);
      expect(await counter(tx)).toEqual({ users: before.users + 1, stamp: before.stamp + 1n });
      await tx.query('UPDATE users SET name = $2 WHERE id = $1', [id, `${tag} renamed`]);
      expect(await counter(tx)).toEqual({ users: before.users + 1, stamp: before.stamp + 2n });
      await tx.query('DELETE FROM users WHERE id = $1', [id]);
      expect(await counter(tx)).toEqual({ users: before.users, stamp: before.stamp + 3n });
    });
  });

  it('answers the known total without counting when the stamp is the one it was counted at', async () => {
    const plan = planListUsers({ searchValue: 'x', searchField: 'email', limit: 1 })!;
    const filtered = planListUsers({ filterField: 'banned', filterValue: 'false', limit: 1 })!;
    await inOneSnapshot(async (tx) => {
      const { stamp } = await counter(tx);
      const real = Number(
        (await tx.query<{ n: string }>(`SELECT count(*) AS n FROM users u ${plan.where}`, plan.params))[0].n,
      );
      const unbanned = Number((await tx.query<{ n: string }>('SELECT count(*) AS n FROM users WHERE NOT banned'))[0].n);
      const total = async (stmt: { text: string; params: unknown[] }) =>
        Number((await tx.query<{ total: string }>(stmt.text, stmt.params))[0].total);
      const now = { stamp: String(stamp), total: 123_456 };
      const older = { stamp: String(stamp - 1n), total: 123_456 };
      expect(await total(listUsersSql(plan, now).walked)).toBe(123_456);
      expect(await total(listUsersSql(filtered, now).count)).toBe(123_456);
      for (const known of [older, null]) {
        expect(await total(listUsersSql(plan, known).walked)).toBe(real);
        expect(await total(listUsersSql(filtered, known).count)).toBe(unbanned);
      }
      // The count is never run when the total is reused (the CASE branch not taken holds it).
      const explain = async (stmt: { text: string; params: unknown[] }) =>
        (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${stmt.text}`, stmt.params))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const countLine = /Aggregate \(actual .*\)\n.*-> {2}(Bitmap Heap|Seq) Scan on users/;
      expect(await explain(listUsersSql(plan, now).walked)).toMatch(/Aggregate \(never executed\)\n.*on users/);
      expect(await explain(listUsersSql(plan, older).walked)).toMatch(countLine);
    });
  });

  it('never answers a total from before a user was added, changed or removed', async () => {
    const word = `lr${randomBytes(4).toString('hex')}`;
    await insertNumbered('r', word);
    const repo = new AdminRepository(t.ctx.sql);
    const search = planListUsers({ searchValue: word, searchField: 'name', limit: 1 })!; // walked from the 2nd time
    const at = new Date('2032-02-02T00:00:00.417Z');
    await t.ctx.sql.query("UPDATE users SET created_at = $1 WHERE name LIKE $2 AND email LIKE 'r1%'", [
      at,
      `${word} %`,
    ]);
    const filter = planListUsers({ filterField: 'createdAt', filterValue: at.toISOString(), limit: 1 })!;
    await recording(async (calls) => {
      const totals = async () => [(await repo.listUsers(search)).total, (await repo.listUsers(filter)).total];
      expect(await totals()).toEqual([300, 111]); // r1, r10–r19, r100–r199
      expect(await totals()).toEqual([300, 111]);
      // The second answers carried the first answers' stamps (whether or not a write elsewhere has moved them).
      const reused = calls.filter(([text]) => text.includes('CASE WHEN k.stamp'));
      expect(reused.map(([, params]) => params!.at(-2) !== null)).toEqual([false, true, true]);
      const id = randomUUID();
      await t.ctx.sql.query('INSERT INTO users (id, email, name, created_at) VALUES ($1, $2, $3, $4)', [
        id,
        `extra.${word}@x.test`,
        `${word} extra`,
        at,
      ]);
      expect(await totals()).toEqual([301, 112]);
      await t.ctx.sql.query('UPDATE users SET name = $2, created_at = now() WHERE id = $1', [id, 'someone else']);
      expect(await totals()).toEqual([300, 111]);
      await t.ctx.sql.query("DELETE FROM users WHERE name = $1 OR (name LIKE $2 AND email LIKE 'r1%')", [
        'someone else',
        `${word} %`,
      ]);
      expect(await totals()).toEqual([189, 0]);
    });
  });

  it('counts every time when ADMIN_LIST_TOTAL_REUSE is off', async () => {
    const repo = new AdminRepository(t.ctx.sql, false);
    const plan = planListUsers({ filterField: 'banned', filterValue: 'true', limit: 1 })!;
    await recording(async (calls) => {
      await repo.listUsers(plan);
      await repo.listUsers(plan);
      const counts = calls.filter(([text]) => text.includes('CASE WHEN k.stamp'));
      expect(counts.map(([, params]) => params!.slice(-2))).toEqual([
        [null, null],
        [null, null],
      ]);
    });
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { planListUsers } from '../../../src/features/admin/list-query';
import { listUsersSql } from '../../../src/features/admin/repository';
import { pruneSearchWords } from '../../../src/features/admin/search-words';
import type { Sql } from '../../../src/shared/sql';
import { startTestApp, type TestApp } from '../../setup/app';
import { runCli } from '../../setup/cli-process';
import { inOneSnapshot } from '../../setup/snapshot';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * In one snapshot: user_words holds exactly the words of the users present, and per word the sum of search_words'
 * counts over its slots is its number of user_words entries (words nobody holds sum to 0).
 */
const wordsAreExact = () =>
  inOneSnapshot(t.ctx.sql, async (tx) => {
    const [row] = await tx.query<Record<string, string>>(
      `WITH expected AS (SELECT w.field, w.word, u.id FROM users u, user_words_of(u.email, u.name) w),
            held AS (SELECT field, word, count(*) AS n FROM user_words GROUP BY field, word),
            counted AS (SELECT field, word, sum(n) AS n FROM search_words GROUP BY field, word HAVING sum(n) <> 0)
       SELECT (SELECT count(*) FROM (SELECT * FROM expected EXCEPT SELECT field, word, user_id FROM user_words) x) AS missing,
              (SELECT count(*) FROM (SELECT field, word, user_id FROM user_words EXCEPT SELECT * FROM expected) x) AS extra,
              (SELECT count(*) FROM (SELECT * FROM held EXCEPT SELECT * FROM counted) x) AS uncounted,
              (SELECT count(*) FROM (SELECT * FROM counted EXCEPT SELECT * FROM held) x) AS overcounted`,
    );
    return row;
  });
const EXACT = { missing: '0', extra: '0', uncounted: '0', overcounted: '0' };

describe('list-users: the words of users, kept by triggers', () => {
  it('keeps every user’s words and each word’s count through inserts, renames, email changes, other updates and deletes', async () => {
    const word = `wk${randomBytes(4).toString('hex')}`;
    const ids = [randomUUID(), randomUUID()];
    await t.ctx.sql.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3), ($4, $5, $6)', [
      ids[0],
      `first.${word}@x.test`,
      `Ann ${word}-Lee`,
      ids[1],
      `second.${word}@x.test`,
      `Bo ${word}`,
    ]);
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'g' || g || '.${word}@x.test', 'Bulk ${word} ' || g
       FROM generate_series(1, 30) g`,
    );
    await t.ctx.sql.query('UPDATE users SET name = $2 WHERE id = $1', [ids[0], `Ann Renamed ${word}x`]);
    await t.ctx.sql.query('UPDATE users SET email = $2 WHERE id = $1', [ids[1], `moved.${word}@y.test`]);
    await t.ctx.sql.query('UPDATE users SET updated_at = now() WHERE email LIKE $1', [`%${word}%`]);
    await t.ctx.sql.query("DELETE FROM users WHERE email LIKE $1 AND email LIKE 'g1%'", [`%${word}%`]);
    expect(await wordsAreExact()).toEqual(EXACT);
    const words = await t.ctx.sql.query<{ field: number; word: string }>(
      'SELECT field, word FROM user_words WHERE user_id = $1 ORDER BY field, word',
      [ids[0]],
    );
    expect(words).toEqual([
      { field: 0, word: 'first' },
      { field: 0, word: 'test' },
      { field: 0, word: word },
      { field: 0, word: 'x' },
      { field: 1, word: 'ann' },
      { field: 1, word: 'renamed' },
      { field: 1, word: `${word}x` },
    ]);
    // The name word: 2 + 30 holders, less the renamed user and the 11 deleted (g1, g10–g19).
    const [held] = await t.ctx.sql.query<{ n: string }>(
      'SELECT sum(n) AS n FROM search_words WHERE field = 1 AND word = $1',
      [word],
    );
    expect(held.n).toBe('20');
  });

  it('writes all the counts of one transaction to one slot, the one of its user counter row', async () => {
    const word = `ws${randomBytes(4).toString('hex')}`;
    await inOneSnapshot(t.ctx.sql, async (tx) => {
      const changes = async () =>
        new Map(
          (await tx.query<{ slot: number; changes: string }>('SELECT slot, changes FROM user_counts')).map((r) => [
            r.slot,
            Number(r.changes),
          ]),
        );
      const before = await changes();
      for (const letter of ['a', 'b'])
        await tx.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [
          randomUUID(),
          `${letter}.${word}@x.test`,
          word,
        ]);
      await tx.query('UPDATE users SET name = $2 WHERE email = $1', [`a.${word}@x.test`, `${word} ${word}b`]);
      const grown = [...(await changes())].filter(([slot, n]) => n !== before.get(slot));
      expect(grown.map(([slot, n]) => n - before.get(slot)!)).toEqual([3]); // three statements, one slot
      const counts = await tx.query<{ word: string; slot: number; n: string }>(
        'SELECT word, slot, n FROM search_words WHERE field = 1 AND word IN ($1, $2) ORDER BY word',
        [word, `${word}b`],
      );
      expect(counts).toEqual([
        { word, slot: grown[0][0], n: '2' },
        { word: `${word}b`, slot: grown[0][0], n: '1' },
      ]);
    });
  });

  it('lets concurrent transactions write users holding the same words in opposite orders, without deadlock', async () => {
    const word = `wd${randomBytes(4).toString('hex')}`;
    const shared = ['alpha', 'beta', 'gamma'].map((w) => `${word}${w}`);
    const writer = async (k: number) => {
      for (let round = 0; round < 4; round++) {
        const order = k % 2 ? [...shared].reverse() : shared;
        await t.ctx.sql.transaction(async (tx: Sql) => {
          for (const [i, w] of order.entries())
            await tx.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [
              randomUUID(),
              `${k}.${round}.${i}.${w}@x.test`,
              `${w} ${order[(i + 1) % order.length]}`,
            ]);
          await tx.query("UPDATE users SET name = name || ' x' WHERE email LIKE $1", [`${k}.${round}.0.${word}%`]);
        });
      }
    };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, k) => writer(k)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await wordsAreExact()).toEqual(EXACT);
    const [held] = await t.ctx.sql.query<{ n: string }>(
      'SELECT sum(n) AS n FROM search_words WHERE field = 1 AND word = $1',
      [shared[0]],
    );
    expect(held.n).toBe(String(8 * 4 * 2)); // every user of every round names two of the three words
  });
});

describe('list-users: a one-word search counted by words', () => {
  it('answers the total the rows give (emails as ILIKE, names folded) for every text, counting by words only when the text is one word', async () => {
    const w = `wz${randomBytes(4).toString('hex')}`;
    const people: Array<[string, string]> = [
      [`Émile ÄRGER-Øst ${w}`, `emile.${w}@x.test`],
      [`${w}${w} Twice`, `twice.${w}@x.test`],
      [`${w} and ${w}zz`, `two-words.${w}@x.test`],
      [`O'Brien ${w}-x`, `obrien+${w}@x.test`],
      [`Under_Score ${w}`, `under_score.${w}@x.test`],
      [`Percent 100% ${w}`, `percent.${w}@x.test`],
      [`Gone ${w}gone`, `gone.${w}gone@x.test`],
    ];
    for (const [name, email] of people)
      await t.ctx.sql.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [randomUUID(), email, name]);
    // a word nobody holds any more: its count sums to 0 over its slots
    await t.ctx.sql.query('DELETE FROM users WHERE email = $1', [`gone.${w}gone@x.test`]);
    const texts = [
      w,
      w.slice(2),
      `${w}z`,
      `${w}gone`,
      'ÉMILE',
      'rger',
      'ärger',
      'ger-ø',
      `${w}${w}`,
      'brien',
      "o'brien",
      'r_s',
      '0%',
      'x.test',
      'ab',
    ];
    await inOneSnapshot(t.ctx.sql, async (tx) => {
      for (const searchField of ['name', 'email', 'any'] as const)
        for (const searchValue of texts) {
          const plan = planListUsers({ searchValue, searchField, limit: 1 })!;
          const stmt = listUsersSql(plan).walked;
          const [row] = await tx.query<{ total: string }>(stmt.text, stmt.params);
          // an email as ILIKE compares it; a name folded (lower(unaccent(…))) on both sides
          const byField = { email: 'email ILIKE $1', name: 'search_fold(name) LIKE search_fold($1)' };
          const compared = searchField === 'any' ? `${byField.email} OR ${byField.name}` : byField[searchField];
          const [direct] = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM users WHERE ${compared}`, [
            `%${searchValue.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
          ]);
          expect([searchField, searchValue, row.total]).toEqual([searchField, searchValue, direct.n]);
          // a text of 3+ letters and digits in each compared form (lowercase for the email, folded for the name)
          const forms = { email: ['lower'], name: ['search_fold'], any: ['lower', 'search_fold'] }[searchField];
          const oneWord = forms.map((f) => `${f}($1) ~ '^[[:alnum:]]{3,}$'`).join(' AND ');
          const plain = await tx.query<{ one: boolean }>(`SELECT ${oneWord} AS one`, [searchValue]);
          const explain = (
            await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${stmt.text}`, stmt.params)
          )
            .map((r) => r['QUERY PLAN'])
            .join('\n');
          // One-word texts look their words up and count no users row; other texts count users rows.
          const byWords = /on search_words sw \(actual/.test(explain);
          const byUsers = /on users u_1 \(actual/.test(explain);
          expect([searchField, searchValue, byWords, byUsers]).toEqual([
            searchField,
            searchValue,
            plain[0].one,
            !plain[0].one,
          ]);
        }
    });
  });

  it('takes a text that lies in one word held by anyone from the word’s count, reading no user_words entry', async () => {
    const w = `wn${randomBytes(4).toString('hex')}`;
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'n' || g || '.${w}@x.test', 'Nia ${w}' FROM generate_series(1, 40) g`,
    );
    const plan = planListUsers({ searchValue: w.slice(1), searchField: 'name', limit: 1 })!;
    const stmt = listUsersSql(plan).walked;
    const explain = (
      await t.ctx.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${stmt.text}`, stmt.params)
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(explain).toMatch(/on search_words sw \(actual/);
    expect(explain).toMatch(/on user_words uw \(never executed\)/);
    const [row] = await t.ctx.sql.query<{ total: string }>(stmt.text, stmt.params);
    expect(row.total).toBe('40');
  });
});

describe('list-users: pruning the words nobody holds', () => {
  const slotsOf = (words: string[]) =>
    t.ctx.sql.query<{ word: string; rows: string; held: string }>(
      `SELECT word, count(*) AS rows, sum(n) AS held FROM search_words WHERE word = ANY ($1)
       GROUP BY word ORDER BY word`,
      [words],
    );

  it('drops the words of deleted users, in batches, and keeps every word someone holds', async () => {
    const w = `wp${randomBytes(4).toString('hex')}`;
    const [gone, kept] = [`${w}gone`, `${w}kept`];
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'p' || g || '.${w}@x.test', '${gone} ${kept}'
       FROM generate_series(1, 3) g`,
    );
    // deleted by three transactions (whatever their slots), so that the words' counts sum to 0 over several rows
    for (const g of [2, 3])
      await t.ctx.sql.query('UPDATE users SET name = $2 WHERE email = $1', [`p${g}.${w}@x.test`, kept]);
    await t.ctx.sql.query('DELETE FROM users WHERE email = $1', [`p1.${w}@x.test`]);
    expect(await slotsOf([gone, kept])).toEqual([
      expect.objectContaining({ word: gone, held: '0' }),
      expect.objectContaining({ word: kept, held: '2' }),
    ]);
    const removed = await pruneSearchWords(t.ctx.sql, 500);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await slotsOf([gone, kept])).toEqual([expect.objectContaining({ word: kept, held: '2' })]);
    expect(await wordsAreExact()).toEqual(EXACT);
    // Only this test's words: other test files share the database and delete users of their own meanwhile.
    const [zero] = await t.ctx.sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM search_words WHERE word LIKE $1 GROUP BY field, word HAVING sum(n) = 0) z`,
      [`${w}%`],
    );
    expect(zero.n).toBe('0');
  });

  it('keeps the counts exact while users holding the same words are written meanwhile', async () => {
    const w = `wq${randomBytes(4).toString('hex')}`;
    // each writer holds one user at a time, alternately named flip0 and flip1: those words keep falling to a zero
    // sum and being held again while the pruning runs
    const writer = async (k: number) => {
      for (let round = 0; round < 12; round++)
        await t.ctx.sql.transaction(async (tx: Sql) => {
          await tx.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [
            randomUUID(),
            `${k}.${round}.${w}@x.test`,
            `${w}flip${round % 2}`,
          ]);
          await tx.query('DELETE FROM users WHERE email = $1', [`${k}.${round - 1}.${w}@x.test`]);
        });
    };
    let writing = true;
    const writers = Promise.allSettled([1, 2, 3, 4].map(writer)).finally(() => {
      writing = false;
    });
    const pruner = async () => {
      let runs = 0;
      while (writing || runs === 0) {
        await pruneSearchWords(t.ctx.sql, 200);
        runs++;
      }
      return runs;
    };
    const pruned = await Promise.allSettled([pruner(), pruner()]);
    expect([...(await writers), ...pruned].filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await wordsAreExact()).toEqual(EXACT);
    await pruneSearchWords(t.ctx.sql); // once more, after the last write
    expect(await slotsOf([`${w}flip0`, `${w}flip1`])).toEqual([
      expect.objectContaining({ word: `${w}flip1`, held: '4' }), // the last round (11) of each writer
    ]);
  });

  it('runs from the operations CLI', async () => {
    const w = `wc${randomBytes(4).toString('hex')}`;
    await t.ctx.sql.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [randomUUID(), `${w}@x.test`, w]);
    await t.ctx.sql.query('DELETE FROM users WHERE email = $1', [`${w}@x.test`]);
    const res = await runCli('words:prune');
    expect([res.code, res.stdout]).toEqual([0, expect.stringMatching(/^removed [1-9]\d* words no user holds\n$/)]);
    expect(await slotsOf([w])).toEqual([]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { adminGet, signUpAdmin } from './helpers';

let t: TestApp;
let admin: SignedUp;
const tag = `lu${randomBytes(4).toString('hex')}`;
const base = Date.parse('2030-01-01T00:00:00Z');

/** Five users made straight in PostgreSQL (fast; no password needed to be listed). */
const people = [
  { local: 'alice', name: `Alice ${tag}`, role: 'admin', banned: false, day: 1 },
  { local: 'bob', name: `Bob ${tag}`, role: 'user', banned: true, day: 2 },
  { local: 'carol', name: `Carol ${tag}`, role: 'user', banned: false, day: 3 },
  { local: 'dan_50%', name: `Dan 50%_off ${tag}`, role: 'user', banned: false, day: 4 },
  { local: 'eve5', name: `Eve 5000 ${tag}`, role: 'user', banned: false, day: 5 },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await signUpAdmin(t);
  for (const p of people) {
    const at = new Date(base + p.day * 86400_000);
    await t.ctx.sql.query(
      'INSERT INTO users (id, email, name, role, banned, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
      [randomUUID(), `${p.local}.${tag}@example.com`, p.name, p.role, p.banned, at],
    );
  }
});
afterAll(() => t.close());

async function list(query: Record<string, string | number>) {
  const qs = new URLSearchParams({
    searchValue: tag,
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  const res = await adminGet(t, `list-users?${qs}`, admin.jar);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    users: Array<{ email: string; name: string }>;
    total: number;
    limit?: number;
    offset?: number;
  };
}
const locals = (r: { users: Array<{ email: string }> }) => r.users.map((u) => u.email.split('.')[0]);

describe('admin list-users', () => {
  it('searches email (default contains), newest first by default, with total, limit and offset', async () => {
    const r = await list({});
    expect(locals(r)).toEqual(['eve5', 'dan_50%', 'carol', 'bob', 'alice']);
    expect([r.total, r.limit, r.offset]).toEqual([5, 100, 0]);
  });

  it('searchField name with contains / starts_with / ends_with, case-insensitive', async () => {
    expect(
      locals(await list({ searchField: 'name', searchValue: `CAROL ${tag}`, searchOperator: 'contains' })),
    ).toEqual(['carol']);
    expect(
      locals(
        await list({
          searchField: 'name',
          searchValue: 'dan',
          searchOperator: 'starts_with',
          filterField: 'email',
          filterOperator: 'contains',
          filterValue: tag,
          sortBy: 'name',
        }),
      ),
    ).toEqual(['dan_50%']);
    expect(
      (await list({ searchField: 'email', searchValue: `${tag}@example.com`, searchOperator: 'ends_with' })).total,
    ).toBe(5);
  });

  it('matches letters beyond ASCII case-insensitively, as ILIKE would (names also without regard to accents)', async () => {
    const id = randomUUID();
    await t.ctx.sql.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [
      id,
      `élodie.${tag}@example.com`,
      `Élodie ÄRGER-Øst ${tag}`,
    ]);
    try {
      for (const [searchField, searchValue, searchOperator] of [
        ['name', `élodie ärger-øst ${tag}`, 'contains'],
        ['name', `ÉLODIE ÄRGER-ØST ${tag.toUpperCase().slice(0, -2)}`, 'starts_with'], // a prefix only this file's user has
        ['name', `-ØST ${tag.toUpperCase()}`, 'ends_with'],
        ['email', `ÉLODIE.${tag.toUpperCase()}`, 'starts_with'],
      ]) {
        const r = await list({ searchField, searchValue, searchOperator });
        const pattern =
          searchOperator === 'contains'
            ? `%${searchValue}%`
            : searchOperator === 'starts_with'
              ? `${searchValue}%`
              : `%${searchValue}`;
        const [{ n }] = await t.ctx.sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM users WHERE ${searchField} ILIKE $1`,
          [pattern],
        );
        expect([searchValue, r.total, locals(r)]).toEqual([searchValue, Number(n), ['élodie']]);
      }
    } finally {
      await t.ctx.sql.query('DELETE FROM users WHERE id = $1', [id]);
    }
  });

  it('escapes LIKE wildcards: % and _ match only themselves', async () => {
    expect(locals(await list({ searchField: 'name', searchValue: '50%_off' }))).toEqual(['dan_50%']);
    const pct = await list({ searchValue: '%', filterField: 'email', filterOperator: 'contains', filterValue: tag });
    expect(locals(pct)).toEqual(['dan_50%']);
    const underscore = await list({
      searchValue: '_',
      filterField: 'name',
      filterOperator: 'contains',
      filterValue: tag,
    });
    expect(locals(underscore)).toEqual(['dan_50%']);
    expect((await list({ searchField: 'name', searchValue: 'Eve 5_00' })).total).toBe(0);
  });

  it('sorts by an allowed field in either direction', async () => {
    expect(locals(await list({ sortBy: 'name', sortDirection: 'asc' }))).toEqual([
      'alice',
      'bob',
      'carol',
      'dan_50%',
      'eve5',
    ]);
    expect(locals(await list({ sortBy: 'createdAt', sortDirection: 'asc' }))).toEqual([
      'alice',
      'bob',
      'carol',
      'dan_50%',
      'eve5',
    ]);
    expect(locals(await list({ sortBy: 'email', sortDirection: 'desc' }))[0]).toBe('eve5');
  });

  it('filters with eq, ne, lt, lte, gt, gte and contains on typed fields', async () => {
    expect(locals(await list({ filterField: 'role', filterValue: 'admin' }))).toEqual(['alice']);
    expect((await list({ filterField: 'role', filterOperator: 'ne', filterValue: 'admin' })).total).toBe(4);
    expect(locals(await list({ filterField: 'banned', filterValue: 'true' }))).toEqual(['bob']);
    const day3 = new Date(base + 3 * 86400_000).toISOString();
    expect((await list({ filterField: 'createdAt', filterOperator: 'lt', filterValue: day3 })).total).toBe(2);
    expect((await list({ filterField: 'createdAt', filterOperator: 'lte', filterValue: day3 })).total).toBe(3);
    expect((await list({ filterField: 'createdAt', filterOperator: 'gt', filterValue: day3 })).total).toBe(2);
    expect((await list({ filterField: 'createdAt', filterOperator: 'gte', filterValue: day3 })).total).toBe(3);
    expect(locals(await list({ filterField: 'name', filterOperator: 'contains', filterValue: 'aRo' }))).toEqual([
      'carol',
    ]);
    expect(locals(await list({ filterField: 'email', filterOperator: 'contains', filterValue: 'BOB.' }))).toEqual([
      'bob',
    ]);
    expect((await list({ filterField: 'role', filterOperator: 'contains', filterValue: 'DMI' })).total).toBe(1);
  });

  it('pages with limit and offset as numbers or numeric text; limit is capped at 1000', async () => {
    const page = await list({ sortBy: 'name', limit: '2', offset: '2' });
    expect(locals(page)).toEqual(['carol', 'dan_50%']);
    expect([page.total, page.limit, page.offset]).toEqual([5, 2, 2]);
    expect((await list({ limit: 5000 })).limit).toBe(1000);
    expect(await list({ offset: 10 })).toEqual({ users: [], total: 5, limit: 100, offset: 10 }); // past the end
  });

  it('answers each user as get-user does, times to the millisecond in UTC (the page reads them as text)', async () => {
    const id = randomUUID();
    const email = `times.${tag}@example.com`;
    // microseconds past the millisecond, and a ban expiry: every timestamp column, as PostgreSQL keeps them
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name, banned, ban_expires, created_at, updated_at)
       VALUES ($1, $2, 'Times', true, '2031-02-03 04:05:06.789999+00', '2030-06-07 08:09:10.000123+00', now())`,
      [id, email],
    );
    const listed = await adminGet(t, `list-users?searchValue=${encodeURIComponent(email)}`, admin.jar);
    const got = await adminGet(t, `get-user?id=${id}`, admin.jar);
    const [user] = listed.json().users;
    expect(user).toEqual(got.json());
    expect([user.banExpires, user.createdAt]).toEqual(['2031-02-03T04:05:06.789Z', '2030-06-07T08:09:10.000Z']);
    await t.ctx.sql.query('DELETE FROM users WHERE id = $1', [id]);
  });

  it.each([
    ['an unknown search field', { searchField: 'password' }],
    ['an unknown search operator', { searchOperator: 'regex' }],
    ['an unknown sort field', { sortBy: 'password' }],
    ['SQL as a sort field', { sortBy: 'name; DROP TABLE users' }],
    ['an unknown sort direction', { sortDirection: 'sideways' }],
    ['an unknown filter field', { filterField: 'ban_reason', filterValue: 'x' }],
    ['an unknown filter operator', { filterField: 'role', filterOperator: 'like', filterValue: 'x' }],
    ['a filter value of the wrong type', { filterField: 'banned', filterValue: 'maybe' }],
    ['a bad date', { filterField: 'createdAt', filterOperator: 'lt', filterValue: 'yesterday' }],
    ['contains on a boolean', { filterField: 'banned', filterOperator: 'contains', filterValue: 'true' }],
    ['a non-numeric limit', { limit: 'ten' }],
    ['a negative offset', { offset: '-1' }],
  ])('answers an empty list with total 0 for %s', async (_label, query) => {
    expect(await list(query as Record<string, string>)).toEqual({ users: [], total: 0 });
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { foldSafe } from '../../../src/features/admin/list-query';
import { startTestApp, type TestApp } from '../../setup/app';
import { type SignedUp, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminGet, expectError, signUpAdmin } from './helpers';

let t: TestApp;
let admin: SignedUp;
const tag = `q${randomBytes(4).toString('hex')}`;
const base = Date.parse('2031-01-01T00:00:00Z');

/** Users made straight in PostgreSQL; `key` names each in the answers. */
const people = [
  { key: 'jurgen', email: `jurgen.${tag}@alpha.test`, name: `Jürgen Müller${tag}`, banned: true, verified: true },
  { key: 'zoe', email: `zoe.${tag}@beta.test`, name: `Zoë Mùller${tag}`, banned: true, verified: false },
  { key: 'max', email: `max.${tag}@alpha.test`, name: `Max MULLER${tag}`, banned: false, verified: true },
  // found by name and by email: counted once
  { key: 'dora', email: `muller${tag}@gamma.test`, name: `Dora Müller${tag}`, banned: false, verified: true },
  // found by email only
  { key: 'fred', email: `muller${tag}.f@gamma.test`, name: 'Fred Plain', banned: false, verified: false },
  { key: 'nina', email: `nina.${tag}@delta-${tag}.test`, name: `Nina Ström ${tag}`, banned: true, verified: true },
  { key: 'pct', email: `pct.${tag}@x.test`, name: `Fifty 50％ 5x0 ${tag}`, banned: false, verified: false },
];
const roles: Record<string, string> = { max: 'admin', dora: 'admin' };

beforeAll(async () => {
  t = await startTestApp();
  admin = await signUpAdmin(t);
  for (const [i, p] of people.entries())
    await t.ctx.sql.query(
      `INSERT INTO users (id, email, name, role, banned, email_verified, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [randomUUID(), p.email, p.name, roles[p.key] ?? 'user', p.banned, p.verified, new Date(base + i * 60_000)],
    );
});
afterAll(() => t.close());

type Listed = { users: Array<{ email: string }>; total: number };

async function get(query: Record<string, string>) {
  const sort = { sortBy: 'createdAt', sortDirection: 'asc' }; // the fixture's order
  return adminGet(t, `list-users?${new URLSearchParams({ ...sort, ...query })}`, admin.jar);
}
async function list(query: Record<string, string>): Promise<Listed> {
  const res = await get(query);
  expect(res.statusCode).toBe(200);
  return res.json();
}
/** The keys of the users answered, in the answer's order. */
const keys = (r: Listed) => r.users.map((u) => people.find((p) => p.email === u.email)?.key ?? u.email);
/** The fixture's keys whose row passes `test`, in its order. */
const expected = (test: (p: (typeof people)[number]) => boolean) => people.filter(test).map((p) => p.key);

/** Counted by PostgreSQL from the rows themselves: the exact total any answer must give. */
async function counted(where: string, params: unknown[]): Promise<number> {
  const [{ n }] = await t.ctx.sql.query<{ n: string }>(`SELECT count(*) AS n FROM users WHERE ${where}`, params);
  return Number(n);
}

describe('list-users: names without regard to accents', () => {
  it.each([['muller'], ['MÜLLER'], ['Mùller']])(
    'searchField name finds Müller, Mùller and MULLER for "%s"',
    async (word) => {
      const r = await list({ searchField: 'name', searchValue: `${word}${tag}` });
      expect(keys(r)).toEqual(expected((p) => /M.LLER/i.test(p.name)));
      expect(keys(r)).toEqual(['jurgen', 'zoe', 'max', 'dora']);
      expect(r.total).toBe(4);
    },
  );

  it('folds starts_with and ends_with too, and a name filter with contains', async () => {
    expect(
      keys(await list({ searchField: 'name', searchValue: 'jurgen muller', searchOperator: 'starts_with' })),
    ).toEqual(['jurgen']);
    expect(keys(await list({ searchField: 'name', searchValue: `strom ${tag}`, searchOperator: 'ends_with' }))).toEqual(
      ['nina'],
    );
    const filtered = await list({ filterField: 'name', filterOperator: 'contains', filterValue: `zoe muller${tag}` });
    expect([keys(filtered), filtered.total]).toEqual([['zoe'], 1]);
  });

  it('keeps the email as the default field: muller without searchField finds only emails', async () => {
    const r = await list({ searchValue: `muller${tag}` });
    expect([keys(r), r.total]).toEqual([['dora', 'fred'], 2]);
  });

  it('never lets a character that folds into a LIKE wildcard act as one', async () => {
    // ＿ folds to _, which would match the x of "5x0"; ％ folds to %, found as the % it is
    expect((await list({ searchField: 'name', searchValue: `5＿0 ${tag}` })).total).toBe(0);
    expect(keys(await list({ searchField: 'name', searchValue: `50% 5x0 ${tag}` }))).toEqual(['pct']);
    expect(keys(await list({ searchField: 'any', searchValue: `50％ 5x0 ${tag}` }))).toEqual(['pct']);
    // the characters foldSafe replaces are every one the database's rules fold into %, _ or \
    const [{ chars }] = await t.ctx.sql.query<{ chars: string }>(
      `SELECT string_agg(chr(c), '' ORDER BY c) AS chars FROM generate_series(128, 65533) c
       WHERE (c < 55296 OR c > 57343) AND search_fold(chr(c)) ~ '[%_\\\\]'`,
    );
    expect([...chars].filter((c) => foldSafe(c) === c)).toEqual([]);
    expect([...chars].length).toBeGreaterThan(0);
    const [{ ascii }] = await t.ctx.sql.query<{ ascii: string }>(
      `SELECT count(*) AS ascii FROM generate_series(1, 127) c WHERE search_fold(chr(c)) <> lower(chr(c))`,
    );
    expect(ascii).toBe('0'); // folding changes no ASCII character but by lowering it
  });
});

describe('list-users: searchField any (the email or the name)', () => {
  it('finds by name or by email, a user matching both counted once, the total exact', async () => {
    const r = await list({ searchField: 'any', searchValue: `muller${tag}` });
    expect([keys(r), r.total]).toEqual([['jurgen', 'zoe', 'max', 'dora', 'fred'], 5]);
    const truth = 'email LIKE lower($1) OR search_fold(name) LIKE search_fold($1)';
    expect(await counted(truth, [`%muller${tag}%`])).toBe(5);
    // an email is compared as searchField email compares it (not folded): Müller finds the names only
    const accented = await list({ searchField: 'any', searchValue: `Müller${tag}` });
    expect([keys(accented), accented.total]).toEqual([['jurgen', 'zoe', 'max', 'dora'], 4]);
    expect(await counted(truth, [`%Müller${tag}%`])).toBe(4);
    // the same search again (its total may be reused), a page of it, and with a filter (counted on users)
    const again = await list({ searchField: 'any', searchValue: `muller${tag}`, limit: '2', offset: '1' });
    expect([keys(again), again.total]).toEqual([['zoe', 'max'], 5]);
    const banned = await list({ searchField: 'any', searchValue: `muller${tag}`, banned: 'false' });
    expect([keys(banned), banned.total]).toEqual([['max', 'dora', 'fred'], 3]);
  });

  it('finds a domain part, a local part without @, or a name part, in one box', async () => {
    expect(keys(await list({ searchField: 'any', searchValue: `delta-${tag}` }))).toEqual(['nina']);
    expect(keys(await list({ searchField: 'any', searchValue: `${tag}@alpha` }))).toEqual(['jurgen', 'max']);
    expect(keys(await list({ searchField: 'any', searchValue: `jurgen.${tag}` }))).toEqual(['jurgen']);
    expect(keys(await list({ searchField: 'any', searchValue: `zoe.${tag}` }))).toEqual(['zoe']);
    expect(keys(await list({ searchField: 'any', searchValue: `nina strom ${tag}` }))).toEqual(['nina']);
    const all = await list({ searchField: 'any', searchValue: tag });
    expect([keys(all), all.total]).toEqual([people.map((p) => p.key), people.length]);
    expect(all.total).toBe(await counted('email LIKE $1 OR name_fold LIKE $1', [`%${tag}%`]));
    const starts = await list({ searchField: 'any', searchValue: `Muller${tag}`, searchOperator: 'starts_with' });
    expect(keys(starts)).toEqual(['dora', 'fred']);
  });
});

describe('list-users: several filters at once', () => {
  const mine = { searchField: 'any', searchValue: tag };
  it('answers exactly the users every filter holds', async () => {
    const both = await list({ ...mine, banned: 'true', emailVerified: 'true' });
    expect(keys(both)).toEqual(expected((p) => p.banned && p.verified));
    expect([keys(both), both.total]).toEqual([['jurgen', 'nina'], 2]);
    const three = await list({ ...mine, banned: 'false', emailVerified: 'true', role: 'admin' });
    expect([keys(three), three.total]).toEqual([['max', 'dora'], 2]);
    const none = await list({ ...mine, banned: 'true', role: 'admin' });
    expect(none).toEqual({ users: [], total: 0, limit: 100, offset: 0 });
    // beside the spec's filter (AND), and without a search
    const withSpec = await list({
      banned: 'true',
      filterField: 'email',
      filterOperator: 'contains',
      filterValue: tag,
      emailVerified: 'false',
    });
    expect([keys(withSpec), withSpec.total]).toEqual([['zoe'], 1]);
    const created = new Date(base + 2 * 60_000).toISOString();
    const older = await list({
      ...mine,
      emailVerified: 'true',
      filterField: 'createdAt',
      filterOperator: 'lte',
      filterValue: created,
    });
    expect(keys(older)).toEqual(['jurgen', 'max']);
  });

  it('banned=true means a ban in force (a lapsed one is not banned), and role= is the stored role text', async () => {
    const own = `r${randomBytes(4).toString('hex')}`;
    const now = Date.now();
    const rows = [
      { key: 'forever', banned: true, expires: null, role: 'user' },
      { key: 'until-later', banned: true, expires: new Date(now + 86_400_000), role: 'admin,user' },
      { key: 'lapsed', banned: true, expires: new Date(now - 60_000), role: 'user,admin' },
      { key: 'never', banned: false, expires: null, role: 'user' },
    ];
    for (const [i, r] of rows.entries())
      await t.ctx.sql.query(
        `INSERT INTO users (id, email, name, role, banned, ban_expires, email_verified, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, true, $7, $7)`,
        [randomUUID(), `${r.key}.${own}@ban.test`, r.key, r.role, r.banned, r.expires, new Date(base + i * 60_000)],
      );
    const names = (l: Listed) => l.users.map((u) => u.email.split('.')[0]);
    const search = { searchField: 'email', searchValue: own };
    expect(names(await list({ ...search, banned: 'true' }))).toEqual(['forever', 'until-later']);
    expect(names(await list({ ...search, banned: 'false' }))).toEqual(['lapsed', 'never']);
    expect((await list({ ...search, banned: 'true' })).total).toBe(2);
    expect(names(await list({ ...search, role: 'admin,user' }))).toEqual(['until-later']);
    expect(names(await list({ ...search, role: 'user' }))).toEqual(['forever', 'never']);
    expect(names(await list({ ...search, role: 'adm' }))).toEqual([]);
    expect(names(await list({ ...search, role: 'admin,user', banned: 'true' }))).toEqual(['until-later']);
  });

  it.each([
    ['banned twice', { banned: 'true', filterField: 'banned', filterValue: 'false' }],
    ['emailVerified twice', { emailVerified: 'true', filterField: 'emailVerified', filterValue: 'true' }],
    ['role twice', { role: 'admin', filterField: 'role', filterOperator: 'contains', filterValue: 'adm' }],
  ])('refuses a field filtered twice (%s) with USER_FILTERED_TWICE', async (_label, query) => {
    expectError(await get({ ...mine, ...query }), 400, 'USER_FILTERED_TWICE', 'A field is filtered twice');
  });

  it.each([
    ['banned=maybe', 'banned=maybe'],
    ['emailVerified=yes', 'emailVerified=yes'],
    ['banned given twice', 'banned=true&banned=false'],
    ['an empty role', 'role='],
    ['a role longer than 256', `role=${'r'.repeat(257)}`],
  ])('refuses a bad filter value (%s) with VALIDATION_ERROR', async (_label, qs) => {
    expectError(await adminGet(t, `list-users?searchValue=${tag}&${qs}`, admin.jar), 400, 'VALIDATION_ERROR');
  });

  it('keeps the spec’s answer to a bad query of its own parameters, and refuses an unknown parameter', async () => {
    expect(await list({ ...mine, searchField: 'password', banned: 'true' })).toEqual({ users: [], total: 0 });
    expectError(await get({ ...mine, verified: 'true' }), 400, 'FIELD_NOT_ALLOWED');
  });

  it('needs the list permission whatever the filters', async () => {
    const plain = await signUp(t.app, { email: uniqueEmail('plain') });
    const res = await adminGet(t, `list-users?banned=true&emailVerified=true&searchField=any&searchValue=x`, plain.jar);
    expectError(res, 403, 'NOT_ALLOWED_TO_LIST_USERS');
  });
});

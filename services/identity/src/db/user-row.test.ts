import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { UserSchema } from '../shared/schemas';
import { toUserView, USER_COLUMN_OF, USER_COLUMNS, USER_RETURNING } from './user-row';

/** The columns of `users` in the schema the migrations make (the committed snapshot, checked against them). */
function migratedUserColumns(): string[] {
  const snapshot = readFileSync(join(__dirname, 'schema.snapshot.txt'), 'utf8');
  const table = snapshot.split('\n\n').find((block) => block.startsWith('table users\n'));
  if (!table) throw new Error('no users table in schema.snapshot.txt');
  return [...table.matchAll(/^ {2}column (\S+) /gm)].map((m) => m[1]);
}

/** A users row with a value of the column's kind in every column the user view reads. */
function sampleRow(): Record<string, unknown> {
  const values: Record<string, unknown> = {
    id: '0196b3a2-7c1e-7000-8000-000000000001',
    email: 'ada@example.test',
    email_verified: true,
    name: 'Ada',
    image: null,
    role: 'user',
    banned: false,
    ban_reason: null,
    ban_expires: null,
    language: 'ENG',
    two_factor_enabled: false,
    passkey_count: '0',
    created_at: new Date('2026-01-02T03:04:05.678Z'),
    updated_at: new Date('2026-01-02T03:04:05.678Z'),
  };
  return Object.fromEntries(Object.values(USER_COLUMN_OF).map((column) => [column, values[column]]));
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('the user column list', () => {
  it('names a column for every property of UserSchema, and none besides', () => {
    expect(sorted(Object.keys(USER_COLUMN_OF))).toEqual(sorted(Object.keys(UserSchema.properties)));
  });

  it('names only columns the migrations make', () => {
    const migrated = new Set(migratedUserColumns());
    expect(Object.values(USER_COLUMN_OF).filter((column) => !migrated.has(column))).toEqual([]);
  });

  it('is the select list of a query naming the table u, and the RETURNING list of a statement on users', () => {
    const columns = Object.values(USER_COLUMN_OF);
    expect(USER_COLUMNS.split(', ')).toEqual(columns.map((column) => `u.${column}`));
    expect(USER_RETURNING.split(', ')).toEqual(columns);
  });

  it('is what toUserView reads: a row of those columns makes a user UserSchema accepts', () => {
    const user = toUserView(sampleRow());
    expect(sorted(Object.keys(user))).toEqual(sorted(Object.keys(UserSchema.properties)));
    expect([...Value.Errors(UserSchema, user)]).toEqual([]);
  });
});

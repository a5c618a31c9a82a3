import { isId } from '../../crypto/random';
import { banInForceSql } from '../../shared/ban';
import { escapeLike } from '../../shared/sql';
import type { ListUsersQuery } from './schemas';
/**
 * list-users options (spec §5) turned into SQL from allow-lists only: no client text ever becomes SQL, values
 * are parameters, LIKE wildcards in search text are escaped. Pure: `planListUsers` answers null for a bad query
 * (an unknown field or operator, a value of the wrong type, a non-numeric limit), and the route then answers
 * an empty list with total 0 (spec §7).
 *
 * Two extensions (docs/admin.md): `searchField=any` looks in the email and the name at once, and the equality
 * filters `role`, `banned` and `emailVerified` apply beside each other and beside filterField (AND). Their bad
 * values are refused by the route's schema and a field filtered twice by the service (`filteredTwice`), with
 * catalogue errors, since they are not the spec's parameters. The options' type is the route's query schema's.
 */

/** The extension's equality filters, each a query parameter named as its field. */
export const FILTER_PARAMS = ['role', 'banned', 'emailVerified'] as const;

/** The spec's filter is set (filterValue present and not empty; filterField defaults to email). */
const specFilter = (q: ListUsersQuery) => q.filterValue !== undefined && q.filterValue !== '';

/** The field a query filters twice, by filterField and by the extension parameter of the same name; else null. */
export function filteredTwice(q: ListUsersQuery): (typeof FILTER_PARAMS)[number] | null {
  if (!specFilter(q)) return null;
  const field = q.filterField ?? 'email';
  return FILTER_PARAMS.find((name) => name === field && q[name] !== undefined) ?? null;
}

export interface ListPlan {
  where: string;
  /**
   * `where` with a search text as one indexable condition on the whole text, not probes and a hidden recheck:
   * for a page that walks a sort index, where the planner must see how many rows the text matches (it takes the
   * hidden recheck for a rare condition and then sorts every match instead of walking). Same parameters.
   */
  walkWhere: string;
  /**
   * A contains search with no filter beside it: for each field it looks in (0 email, 1 name, as in `user_words`),
   * its `%text%` pattern as SQL (`lower($n)` or `search_fold($n)`), for counting its matches by words (migrations
   * 1795600000200, 1796100000100). Null otherwise.
   */
  wordSearch: Array<{ field: 0 | 1; pattern: string }> | null;
  params: unknown[];
  orderBy: string;
  /** The sort column and direction alone (allow-listed), for statements that order in two steps. */
  sortColumn: string;
  direction: 'ASC' | 'DESC';
  limit: number;
  offset: number;
  /** A LIKE or ILIKE condition is present: the trigram index should find the matches before any sorting. */
  textSearch: boolean;
}

type Kind = 'text' | 'bool' | 'time' | 'uuid';
/** Client field name → column and type. */
const FIELDS: Record<string, [string, Kind]> = {
  id: ['id', 'uuid'],
  email: ['email', 'text'],
  name: ['name', 'text'],
  role: ['role', 'text'],
  banned: ['banned', 'bool'],
  emailVerified: ['email_verified', 'bool'],
  createdAt: ['created_at', 'time'],
  updatedAt: ['updated_at', 'time'],
  banExpires: ['ban_expires', 'time'],
};
const COMPARE: Record<string, string> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/**
 * The extension filters' conditions, as the console shows users. `banned`: a ban in force, or its negation (a ban
 * whose end has passed is no ban; the service clears it at the user's next sign-in; the database's clock decides,
 * as for every expiry, docs/decisions/0004-database-clock.md). `role`: the stored role text, exactly. `emailVerified`: the stored flag.
 */
const BAN_IN_FORCE = banInForceSql('now()');
const EXTENSION_FILTERS: Record<'role' | 'emailVerified', (param: string) => string> = {
  role: (p) => `role = ${p}`,
  emailVerified: (p) => `email_verified = ${p}`,
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

function count(value: string | number | undefined, fallback: number): number | null {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function typed(kind: Kind, value: string | number | boolean): unknown {
  const text = String(value);
  if (kind === 'bool') return text === 'true' ? true : text === 'false' ? false : undefined;
  if (kind === 'time') return Number.isNaN(Date.parse(text)) ? undefined : new Date(text);
  if (kind === 'uuid') return isId(text) ? text : undefined;
  return text;
}

/**
 * The parts of a search text the trigram index looks up (search-trigrams.ts `indexProbes`); the whole text is then
 * checked on each row found. Absent: the whole text is looked up.
 */
export type IndexProbes = (field: SearchField, text: string) => string[];

/** The fields a search text may look in (each has a trigram index). */
export type SearchField = 'email' | 'name';

/**
 * Each searchable field's column, trigram-indexed, and how a pattern is made comparable with it. Emails are stored
 * lowercase (CHECK users_email_lowercase): `email LIKE lower(p)` answers exactly what `email ILIKE p` does
 * (PostgreSQL's ILIKE lowers both sides on a UTF-8 database) without lowering every row it checks. Names are
 * compared folded: `name_fold` is search_fold(name) = lower(unaccent(name)) (migration 1796100000100), so `muller`
 * finds Müller and Mùller, and `MÜLLER` finds Muller.
 */
const COMPARED: Record<SearchField, { column: string; compare: 'lower' | 'search_fold' }> = {
  email: { column: 'email', compare: 'lower' },
  name: { column: 'name_fold', compare: 'search_fold' },
};

/** searchField → the fields it looks in; `any` (an extension): a user matches when either matches. */
const SEARCHES = { email: ['email'], name: ['name'], any: ['email', 'name'] } as const satisfies Record<
  string,
  readonly SearchField[]
>;

/** searchOperator → the LIKE pattern of an escaped text. */
const WRAPS = {
  contains: (text: string) => `%${text}%`,
  starts_with: (text: string) => `${text}%`,
  ends_with: (text: string) => `%${text}`,
};

/**
 * Characters that unaccent turns into a LIKE wildcard or escape (its rules map the fullwidth ％ and ＿, the small
 * ﹪ and ﹨, ＼ and the set minus ∖ to %, _ and \), replaced by what they fold to before the text is escaped, so that a
 * folded pattern never holds an unescaped wildcard. Folding changes no other ASCII character (a test checks the
 * database's rules for every character of the Basic Multilingual Plane).
 */
const FOLDS_TO_LIKE: Record<string, string> = { '∖': '\\', '﹨': '\\', '＼': '\\', '﹪': '%', '％': '%', '＿': '_' };
export const foldSafe = (text: string): string => text.replace(/[∖﹨＼﹪％＿]/g, (c) => FOLDS_TO_LIKE[c]);

export function planListUsers(q: ListUsersQuery, probesOf?: IndexProbes): ListPlan | null {
  const search: string[] = []; // the text search as the index looks it up (probes and the hidden recheck)
  let wholeSearch: string | null = null; // the same search as one condition on the whole text
  const filters: string[] = [];
  const params: unknown[] = [];
  let textSearch = false;
  let wordSearch: ListPlan['wordSearch'] = null;
  if (q.searchValue) {
    const field = q.searchField ?? 'email';
    const op = q.searchOperator ?? 'contains';
    const sides = Object.hasOwn(SEARCHES, field) ? SEARCHES[field as keyof typeof SEARCHES] : null;
    const wrap = Object.hasOwn(WRAPS, op) ? WRAPS[op as keyof typeof WRAPS] : null;
    if (!sides || !wrap) return null;
    const looked: string[] = [];
    const whole: string[] = [];
    const words: Array<{ field: 0 | 1; pattern: string }> = [];
    for (const side of sides) {
      const { column, compare } = COMPARED[side];
      const value = compare === 'search_fold' ? foldSafe(q.searchValue) : q.searchValue;
      const probes = (probesOf?.(side, value) ?? []).filter(
        (probe) => probe && probe !== value && value.includes(probe),
      );
      const conditions: string[] = [];
      for (const probe of probes) {
        params.push(`%${escapeLike(probe)}%`);
        conditions.push(`${column} LIKE ${compare}($${params.length})`);
      }
      params.push(wrap(escapeLike(value)));
      const pattern = `${compare}($${params.length})`;
      whole.push(`${column} LIKE ${pattern}`); // served by the trigram indexes
      // With probes the index finds the rows holding every probe; `column || ''` (not indexable) checks the pattern.
      conditions.push(probes.length ? `(${column} || '') LIKE ${pattern}` : `${column} LIKE ${pattern}`);
      looked.push(conditions.join(' AND '));
      words.push({ field: side === 'email' ? 0 : 1, pattern });
    }
    const either = (conditions: string[]) =>
      conditions.length === 1 ? conditions[0] : `(${conditions.map((c) => `(${c})`).join(' OR ')})`;
    search.push(either(looked));
    wholeSearch = either(whole);
    if (op === 'contains') wordSearch = words;
    textSearch = true;
  }
  if (specFilter(q)) {
    const field = q.filterField ?? 'email';
    const value = String(q.filterValue);
    const op = q.filterOperator ?? 'eq';
    if (!Object.hasOwn(FIELDS, field)) return null;
    const [column, kind] = FIELDS[field];
    if (op === 'contains') {
      if (kind !== 'text') return null;
      const searched = Object.hasOwn(COMPARED, field) ? COMPARED[field as SearchField] : null;
      params.push(`%${escapeLike(searched?.compare === 'search_fold' ? foldSafe(value) : value)}%`);
      filters.push(
        searched
          ? `${searched.column} LIKE ${searched.compare}($${params.length})`
          : `${column} ILIKE $${params.length}`,
      );
      textSearch = true;
    } else {
      const sqlOp = Object.hasOwn(COMPARE, op) ? COMPARE[op] : undefined;
      const typedValue = typed(kind, value);
      if (!sqlOp || typedValue === undefined) return null;
      params.push(typedValue);
      filters.push(`${column} ${sqlOp} $${params.length}`);
    }
  }
  for (const field of FILTER_PARAMS) {
    const value = q[field];
    if (value === undefined) continue;
    const [, kind] = FIELDS[field];
    const typedValue = typed(kind, value);
    if (typedValue === undefined) return null; // the route's schema lets no such value through
    if (field === 'banned') {
      filters.push(typedValue ? BAN_IN_FORCE : `NOT ${BAN_IN_FORCE}`);
      continue;
    }
    params.push(typedValue);
    filters.push(EXTENSION_FILTERS[field](`$${params.length}`));
  }
  if (filters.length) wordSearch = null; // the words alone cannot apply a filter
  const sortField = q.sortBy ?? 'createdAt';
  if (!Object.hasOwn(FIELDS, sortField)) return null;
  const direction = q.sortDirection ?? (q.sortBy ? 'asc' : 'desc');
  if (direction !== 'asc' && direction !== 'desc') return null;
  const limit = count(q.limit, DEFAULT_LIMIT);
  const offset = count(q.offset, 0);
  if (limit === null || offset === null) return null;
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');
  return {
    where: whereOf([...search, ...filters]),
    walkWhere: whereOf([...(wholeSearch ? [wholeSearch] : []), ...filters]),
    wordSearch,
    params,
    orderBy: `ORDER BY ${FIELDS[sortField][0]} ${dir}, id ${dir}`,
    sortColumn: FIELDS[sortField][0],
    direction: dir,
    limit: Math.min(limit, MAX_LIMIT),
    offset,
    textSearch,
  };
}

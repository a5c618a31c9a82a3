import { isId } from '../../crypto/random';
import { escapeLike } from '../../shared/sql';
/**
 * list-users options (spec §5) turned into SQL from allow-lists only: no client text ever becomes SQL, values
 * are parameters, LIKE wildcards in search text are escaped. Pure: `planListUsers` answers null for a bad query
 * (an unknown field or operator, a value of the wrong type, a non-numeric limit), and the route then answers
 * an empty list with total 0 (spec §7).
 */
export interface ListUsersQuery {
  searchValue?: string;
  searchField?: string;
  searchOperator?: string;
  limit?: string | number;
  offset?: string | number;
  sortBy?: string;
  sortDirection?: string;
  filterField?: string;
  filterValue?: string | number | boolean;
  filterOperator?: string;
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
   * A contains search with no filter beside it: its field (0 email, 1 name, as in `user_words`) and the number of
   * its `%text%` parameter, for counting its matches by words (migration 1795600000200). Null otherwise.
   */
  wordSearch: { field: 0 | 1; param: number } | null;
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
 * Each searchable field's lowercase column, trigram-indexed: `col LIKE lower(p)` answers exactly what
 * `field ILIKE p` does (PostgreSQL's ILIKE lowers both sides on a UTF-8 database) without lowering every row it
 * checks. Emails are stored lowercase (CHECK users_email_lowercase); name_lower is generated (migration 1795500000100).
 */
const LOWERCASE: Record<SearchField, string> = { email: 'email', name: 'name_lower' };
const lowercaseColumn = (field: string): string | null =>
  Object.hasOwn(LOWERCASE, field) ? LOWERCASE[field as SearchField] : null;

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
    const column = lowercaseColumn(field);
    if (!column) return null;
    const text = escapeLike(q.searchValue);
    const pattern =
      op === 'contains' ? `%${text}%` : op === 'starts_with' ? `${text}%` : op === 'ends_with' ? `%${text}` : null;
    if (pattern === null) return null;
    const value = q.searchValue;
    const probes = (probesOf?.(field as SearchField, value) ?? []).filter(
      (probe) => probe && probe !== value && value.includes(probe),
    );
    for (const probe of probes) {
      params.push(`%${escapeLike(probe)}%`);
      search.push(`${column} LIKE lower($${params.length})`);
    }
    params.push(pattern);
    wholeSearch = `${column} LIKE lower($${params.length})`; // served by the trigram indexes
    // With probes the index finds the rows holding every probe; `column || ''` (not indexable) checks the pattern.
    search.push(probes.length ? `(${column} || '') LIKE lower($${params.length})` : wholeSearch);
    if (op === 'contains') wordSearch = { field: field === 'email' ? 0 : 1, param: params.length };
    textSearch = true;
  }
  if (q.filterValue !== undefined && q.filterValue !== '') {
    wordSearch = null; // the words alone cannot apply a filter
    const field = q.filterField ?? 'email';
    const op = q.filterOperator ?? 'eq';
    if (!Object.hasOwn(FIELDS, field)) return null;
    const [column, kind] = FIELDS[field];
    if (op === 'contains') {
      if (kind !== 'text') return null;
      params.push(`%${escapeLike(String(q.filterValue))}%`);
      const lowercase = lowercaseColumn(field);
      filters.push(lowercase ? `${lowercase} LIKE lower($${params.length})` : `${column} ILIKE $${params.length}`);
      textSearch = true;
    } else {
      const sqlOp = Object.hasOwn(COMPARE, op) ? COMPARE[op] : undefined;
      const value = typed(kind, q.filterValue);
      if (!sqlOp || value === undefined) return null;
      params.push(value);
      filters.push(`${column} ${sqlOp} $${params.length}`);
    }
  }
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

/**
 * The schema of a database as PostgreSQL's catalogs hold it, in a normalized text that reads well in a diff: what
 * the migration tests compare with src/db/schema.snapshot.txt and between the steps of a migration and its revert.
 *
 * Every schema but PostgreSQL's own is read: extensions (by name; their version is the server's), schemas, types,
 * sequences, tables (columns with type, nullability, default and generation; constraints as PostgreSQL prints them,
 * so keys, checks and foreign keys with their actions; indexes as `CREATE INDEX` statements; triggers; rules;
 * row-level security; storage options; partitioning), views, and functions with their source. Objects an extension
 * created belong to the extension line. Monthly partitions named `<table>_YYYY_MM` that cover exactly that month
 * (UTC) are counted, not listed: which months exist depends on when the migrations ran. Anything of a kind not
 * described above is still named, so no object goes unseen. Owners and privileges depend on who ran the migrations
 * and are left out.
 */

/** Runs one catalog query, always on the same connection (a pg Client's `query`, rows only). */
export type CatalogQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

/** One entry per object, keyed `<kind> <name>` (`table users`, `function search_fold(text)`): its description. */
export type SchemaDescription = Record<string, string>;

const KIND_ORDER = ['schema', 'extension', 'type', 'sequence', 'table', 'view', 'function', 'other'];

/** Namespaces of the database's own objects, never described. */
const USER_NAMESPACE = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

/** The object (of the catalog `catalog`, column `oid`) is not a member of an extension. */
const notFromExtension = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;

/**
 * Reads the description. The session's time zone and date style are fixed first (partition bounds and defaults
 * print timestamps in them), so the caller's connection should be one the description may change settings of.
 */
export async function describeSchema(query: CatalogQuery): Promise<SchemaDescription> {
  await query(`SET TimeZone = 'UTC'`);
  await query(`SET DateStyle = 'ISO, YMD'`);
  const out: SchemaDescription = {};

  for (const r of await query(
    `SELECT n.nspname AS name FROM pg_namespace n WHERE ${USER_NAMESPACE} AND n.nspname <> 'public'
       AND ${notFromExtension('pg_namespace', 'n.oid')}`,
  ))
    out[`schema ${r.name}`] = `schema ${r.name}`;

  for (const r of await query(
    `SELECT e.extname AS name, n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace`,
  ))
    out[`extension ${r.name}`] = `extension ${r.name} (schema ${r.schema})`;

  for (const r of await query(
    `SELECT format_type(t.oid, NULL) AS name, t.typtype AS kind,
            (SELECT string_agg(quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder) FROM pg_enum e
              WHERE e.enumtypid = t.oid) AS labels,
            format_type(t.typbasetype, t.typtypmod) AS base, t.typnotnull AS not_null, t.typdefault AS "default",
            (SELECT string_agg(pg_get_constraintdef(c.oid), ' ' ORDER BY c.conname) FROM pg_constraint c
              WHERE c.contypid = t.oid) AS checks
     FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE ${USER_NAMESPACE} AND t.typtype IN ('e', 'd', 'r')
       AND ${notFromExtension('pg_type', 't.oid')}`,
  )) {
    const text =
      r.kind === 'e'
        ? `type ${r.name} AS ENUM (${r.labels ?? ''})`
        : r.kind === 'd'
          ? [`domain ${r.name} AS ${r.base}`, r.not_null && 'NOT NULL', r.default && `DEFAULT ${r.default}`, r.checks]
              .filter(Boolean)
              .join(' ')
          : `type ${r.name} (range)`;
    out[`type ${r.name}`] = text;
  }

  for (const r of await query(
    `SELECT c.oid::regclass::text AS name, format_type(s.seqtypid, NULL) AS type, s.seqstart AS start,
            s.seqincrement AS increment, s.seqmin AS min, s.seqmax AS max, s.seqcache AS cache, s.seqcycle AS cycle,
            (SELECT a.attrelid::regclass::text || '.' || quote_ident(a.attname) FROM pg_depend d
               JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
             WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')) AS owned_by
     FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${USER_NAMESPACE} AND ${notFromExtension('pg_class', 'c.oid')}`,
  ))
    out[`sequence ${r.name}`] =
      `sequence ${r.name} AS ${r.type} START ${r.start} INCREMENT ${r.increment} MINVALUE ${r.min} ` +
      `MAXVALUE ${r.max} CACHE ${r.cache}${r.cycle ? ' CYCLE' : ''}${r.owned_by ? ` OWNED BY ${r.owned_by}` : ''}`;

  Object.assign(out, await describeTables(query));

  for (const r of await query(
    `SELECT c.oid::regclass::text AS name, c.relkind AS kind, pg_get_viewdef(c.oid) AS def
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${USER_NAMESPACE} AND c.relkind IN ('v', 'm') AND ${notFromExtension('pg_class', 'c.oid')}`,
  ))
    out[`view ${r.name}`] =
      `${r.kind === 'm' ? 'materialized view' : 'view'} ${r.name} AS\n${indent(String(r.def).trim())}`;

  for (const r of await query(
    `SELECT p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE ${USER_NAMESPACE} AND p.prokind IN ('f', 'p', 'w') AND ${notFromExtension('pg_proc', 'p.oid')}`,
  ))
    out[`function ${r.name}`] = `function ${r.name}\n${indent(String(r.def).trim())}`;

  // Whatever the queries above do not describe is at least named, so a migration cannot add it unseen.
  for (const r of await query(
    `SELECT c.oid::regclass::text AS name, c.relkind AS kind
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${USER_NAMESPACE} AND c.relkind NOT IN ('r', 'p', 'i', 'I', 'S', 'v', 'm', 't', 'c')
       AND ${notFromExtension('pg_class', 'c.oid')}
     UNION ALL
     SELECT p.oid::regprocedure::text, 'aggregate' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE ${USER_NAMESPACE} AND p.prokind = 'a' AND ${notFromExtension('pg_proc', 'p.oid')}
     UNION ALL
     SELECT format_type(t.oid, NULL), 'composite type' FROM pg_type t JOIN pg_class c ON c.oid = t.typrelid
       JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE ${USER_NAMESPACE} AND t.typtype = 'c' AND c.relkind = 'c' AND ${notFromExtension('pg_type', 't.oid')}
     UNION ALL
     SELECT o.oprname || '(' || format_type(o.oprleft, NULL) || ', ' || format_type(o.oprright, NULL) || ')',
            'operator' FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace
     WHERE ${USER_NAMESPACE} AND ${notFromExtension('pg_operator', 'o.oid')}
     UNION ALL
     SELECT s.stxname, 'statistics' FROM pg_statistic_ext s JOIN pg_namespace n ON n.oid = s.stxnamespace
     WHERE ${USER_NAMESPACE}
     UNION ALL
     SELECT e.evtname, 'event trigger' FROM pg_event_trigger e
     UNION ALL
     SELECT p.pubname, 'publication' FROM pg_publication p`,
  ))
    out[`other ${r.kind} ${r.name}`] = `${r.kind} ${r.name}`;

  return out;
}

/** Tables and partitioned tables, each with its columns, constraints, indexes, triggers, rules and partitions. */
async function describeTables(query: CatalogQuery): Promise<SchemaDescription> {
  const tables = await query(
    `SELECT c.oid, c.oid::regclass::text AS name, c.relkind AS kind, c.relpersistence AS persistence,
            c.reloptions AS options, c.relrowsecurity AS rls, c.relforcerowsecurity AS force_rls,
            c.relispartition AS is_partition,
            CASE WHEN c.relispartition THEN (SELECT i.inhparent::regclass::text FROM pg_inherits i
              WHERE i.inhrelid = c.oid) END AS parent,
            CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END AS bound,
            CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END AS partition_key
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${USER_NAMESPACE} AND c.relkind IN ('r', 'p') AND ${notFromExtension('pg_class', 'c.oid')}`,
  );
  const lines = new Map<string, string[]>(tables.map((t) => [String(t.oid), []]));
  const add = (oid: unknown, line: string) => lines.get(String(oid))?.push(line);

  // Columns in their order in the table (INSERT … SELECT * depends on it); inherited ones belong to the parent.
  for (const r of await query(
    `SELECT a.attrelid AS oid, quote_ident(a.attname) AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null, a.attgenerated AS generated, a.attidentity AS identity,
            pg_get_expr(d.adbin, d.adrelid) AS "default",
            CASE WHEN a.attcollation <> t.typcollation THEN (SELECT quote_ident(co.collname) FROM pg_collation co
              WHERE co.oid = a.attcollation) END AS collation
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE ${USER_NAMESPACE} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND a.attislocal
     ORDER BY a.attrelid, a.attnum`,
  )) {
    const parts = [`column ${r.name} ${r.type}`];
    if (r.collation) parts.push(`COLLATE ${r.collation}`);
    if (r.not_null) parts.push('NOT NULL');
    if (r.generated === 's') parts.push(`GENERATED ALWAYS AS (${r.default}) STORED`);
    else if (r.default) parts.push(`DEFAULT ${r.default}`);
    if (r.identity) parts.push(`GENERATED ${r.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`);
    add(r.oid, parts.join(' '));
  }

  // Constraints a partition takes from its parent (keys, foreign keys, inherited checks) belong to the parent.
  // NOT NULL is said by the column (PostgreSQL 18 also lists it here, as contype 'n').
  for (const r of await query(
    `SELECT c.conrelid AS oid, quote_ident(c.conname) AS name, pg_get_constraintdef(c.oid) AS def
     FROM pg_constraint c
     WHERE c.conrelid <> 0 AND c.conparentid = 0 AND c.conislocal AND c.contype <> 'n'
     ORDER BY c.conrelid, c.conname`,
  ))
    add(r.oid, `constraint ${r.name} ${r.def}`);

  // Indexes, but those of a constraint (described by it) and those a partition takes from its parent.
  for (const r of await query(
    `SELECT i.indrelid AS oid, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
     WHERE NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
       AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)
     ORDER BY i.indrelid, ic.relname`,
  ))
    add(r.oid, `index ${r.def}`);

  // Triggers written by hand (not those of foreign keys), but the clones a partition takes from its parent.
  for (const r of await query(
    `SELECT t.tgrelid AS oid, pg_get_triggerdef(t.oid) AS def, t.tgenabled AS enabled
     FROM pg_trigger t WHERE NOT t.tgisinternal AND t.tgparentid = 0
     ORDER BY t.tgrelid, t.tgname`,
  ))
    add(r.oid, `trigger ${r.def}${r.enabled === 'O' ? '' : ` (enabled: ${r.enabled})`}`);

  for (const r of await query(
    `SELECT r.ev_class AS oid, pg_get_ruledef(r.oid) AS def FROM pg_rewrite r
     WHERE r.rulename <> '_RETURN' ORDER BY r.ev_class, r.rulename`,
  ))
    add(r.oid, `rule ${r.def}`);

  for (const r of await query(
    `SELECT p.polrelid AS oid, quote_ident(p.polname) AS name, p.polcmd AS cmd, p.polpermissive AS permissive,
            pg_get_expr(p.polqual, p.polrelid) AS using, pg_get_expr(p.polwithcheck, p.polrelid) AS check
     FROM pg_policy p ORDER BY p.polrelid, p.polname`,
  ))
    add(
      r.oid,
      `policy ${r.name} ${r.permissive ? 'PERMISSIVE' : 'RESTRICTIVE'} FOR ${r.cmd}` +
        `${r.using ? ` USING (${r.using})` : ''}${r.check ? ` WITH CHECK (${r.check})` : ''}`,
    );

  const byName = new Map(tables.map((t) => [String(t.name), t]));
  const partitions = new Map<string, Array<Record<string, unknown>>>();
  for (const t of tables)
    if (t.is_partition) partitions.set(String(t.parent), [...(partitions.get(String(t.parent)) ?? []), t]);

  const out: SchemaDescription = {};
  for (const t of tables) {
    if (t.is_partition && byName.has(String(t.parent))) continue; // listed under its parent
    const head = [`${t.persistence === 'u' ? 'unlogged ' : ''}table ${t.name}`];
    if (t.partition_key) head.push(`PARTITION BY ${t.partition_key}`);
    if (t.is_partition) head.push(`PARTITION OF ${t.parent} ${t.bound}`);
    if (t.options) head.push(`WITH (${(t.options as string[]).join(', ')})`);
    if (t.rls) head.push(t.force_rls ? 'ROW LEVEL SECURITY (forced)' : 'ROW LEVEL SECURITY');
    const body = [...(lines.get(String(t.oid)) ?? [])];
    body.push(...describePartitions(String(t.name), partitions.get(String(t.name)) ?? [], lines));
    out[`table ${t.name}`] = [head.join(' '), ...indentLines(body)].join('\n');
  }
  return out;
}

/**
 * A partitioned table's partitions: each by name and bound, with what it has of its own (usually nothing), except
 * the monthly ones (`<table>_YYYY_MM` for exactly that UTC month), which are counted, with whether they follow one
 * another without a gap.
 */
function describePartitions(
  table: string,
  children: Array<Record<string, unknown>>,
  lines: Map<string, string[]>,
): string[] {
  const monthly: string[] = [];
  const out: string[] = [];
  for (const child of [...children].sort((a, b) => String(a.name).localeCompare(String(b.name)))) {
    const own = lines.get(String(child.oid)) ?? [];
    const month = new RegExp(`^${table}_(\\d{4})_(\\d{2})$`).exec(String(child.name));
    if (month && own.length === 0 && child.bound === monthBound(Number(month[1]), Number(month[2]))) {
      monthly.push(`${month[1]}-${month[2]}`);
      continue;
    }
    const options = child.options ? ` WITH (${(child.options as string[]).join(', ')})` : '';
    out.push(`partition ${child.name} ${child.bound}${options}`, ...indentLines(own));
  }
  if (monthly.length) {
    const consecutive = monthly.every(
      (m, i) => i === 0 || m === nextMonth(...(monthly[i - 1].split('-').map(Number) as [number, number])),
    );
    out.push(
      `partition ${table}_<YYYY_MM> FOR VALUES FROM ('<YYYY-MM>-01 00:00:00+00') TO ('<next month>-01 00:00:00+00'): ` +
        `${monthly.length} months${consecutive ? ', consecutive' : ', with gaps'}`,
    );
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
const nextMonth = (year: number, month: number) => (month === 12 ? `${year + 1}-01` : `${year}-${pad(month + 1)}`);
const monthBound = (year: number, month: number) =>
  `FOR VALUES FROM ('${year}-${pad(month)}-01 00:00:00+00') TO ('${nextMonth(year, month)}-01 00:00:00+00')`;

const indentLines = (lines: string[]) => lines.map((l) => indent(l));
const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');

/** The description as text: objects by kind (extensions, types, sequences, tables, views, functions), then name. */
export function renderSchema(description: SchemaDescription): string {
  const rank = (key: string) => KIND_ORDER.indexOf(key.split(' ')[0]);
  const keys = Object.keys(description).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  // Trailing blanks (function bodies written in template strings) are dropped: an editor would drop them too.
  return `${keys.map((k) => description[k].replace(/[ \t]+$/gm, '')).join('\n\n')}\n`;
}

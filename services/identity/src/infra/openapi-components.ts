import { isDeepStrictEqual } from 'node:util';

/**
 * Named components from the route schemas. A shared schema carries an `$id` (User, Session, ApiKey, …: see
 * src/shared/schemas.ts and the features' schemas.ts); the route schemas stay the single source of validation and
 * types, and only the document is rewritten here: every subschema with an `$id` becomes a
 * `$ref: '#/components/schemas/<$id>'`, and the schema itself is emitted once under that name. Left to itself,
 * @fastify/swagger inlines a response's top-level schema and names the nested ones `def-N`, which client generators
 * turn into meaningless type names.
 */

type Json = Record<string, unknown>;
export type Components = Map<string, { source: Json; body: unknown }>;

const COMPONENTS = '#/components/schemas/';

/** The route schema parts that hold schemas (the rest, summary, tags, …, is left as it is). */
const WHOLE = ['body'] as const;
/** These @fastify/swagger expands into one parameter per property: their root stays inline. */
const EXPANDED = ['querystring', 'params', 'headers'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** A schema resource's name; a fragment-only `$id` is an anchor, not a name. */
const nameOf = (node: Json): string | undefined =>
  typeof node.$id === 'string' && node.$id !== '' && !node.$id.startsWith('#') ? node.$id : undefined;

/**
 * A copy of `node` where every named subschema is a reference to its component. With `keepRoot`, the root stays a
 * schema, without its `$id` (a component's own body, or an expanded part).
 */
function referenced(node: unknown, keepRoot = false): unknown {
  if (Array.isArray(node)) return node.map((item) => referenced(item));
  if (!isObject(node)) return node;
  const name = nameOf(node);
  if (name !== undefined && !keepRoot) return { $ref: `${COMPONENTS}${name}` };
  const copy: Json = {};
  for (const [key, value] of Object.entries(node))
    if (key !== '$id' || name === undefined) copy[key] = referenced(value);
  return copy;
}

/**
 * Adds every named subschema of `node` to `into`. Two different schemas under one name would make the document lie
 * about one of them: that stops the start-up instead. With `skipRoot`, the root is not a component (it stays inline).
 */
function collect(node: unknown, into: Components, skipRoot = false): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, into);
    return;
  }
  if (!isObject(node)) return;
  const name = skipRoot ? undefined : nameOf(node);
  if (name !== undefined) {
    const known = into.get(name);
    if (known === undefined) into.set(name, { source: node, body: referenced(node, true) });
    else if (known.source !== node && !isDeepStrictEqual(known.body, referenced(node, true)))
      throw new Error(`OpenAPI: two different schemas have the $id ${JSON.stringify(name)}`);
  }
  for (const value of Object.values(node)) collect(value, into);
}

/** Adds the named schemas a route schema uses to `into`: the components `documentedSchema` refers to. */
export function collectComponents(schema: Json, into: Components): void {
  for (const part of WHOLE) collect(schema[part], into);
  for (const part of EXPANDED) collect(schema[part], into, true);
  if (isObject(schema.response)) for (const value of Object.values(schema.response)) collect(value, into);
}

/** The route schema as the document shows it: the same, with references to the named components. */
export function documentedSchema(schema: Json): Json {
  const out: Json = { ...schema };
  for (const part of WHOLE) if (schema[part] !== undefined) out[part] = referenced(schema[part]);
  for (const part of EXPANDED) if (schema[part] !== undefined) out[part] = referenced(schema[part], true);
  if (isObject(schema.response)) {
    const response: Json = {};
    for (const [status, value] of Object.entries(schema.response)) response[status] = referenced(value);
    out.response = response;
  }
  return out;
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * A small, test-only renderer for the subset of Helm's Go templates this chart uses (there is no helm binary on
 * this machine and no Go-template package on npm that knows Helm's functions). It supports `{{- -}}` trimming,
 * comments, if/else/with/range/define/end, variables ($, $name, `range $k, $v := …`), pipelines, parentheses and
 * the functions below. Anything else throws, so a template that strays outside the subset fails the test instead
 * of being skipped. CI renders with the real helm (`helm template | kubeconform`).
 */
type Node =
  | { t: 'text'; v: string }
  | { t: 'out'; expr: string }
  | { t: 'if' | 'with' | 'range'; expr: string; body: Node[]; alt: Node[] };

interface Scope {
  dot: unknown;
  root: Record<string, unknown>;
  vars: Record<string, unknown>;
}

export interface RenderResult {
  files: Record<string, string>;
  /** `.Values.*` paths the templates read that values do not define (typos). */
  missingValues: string[];
}

const ACTION = /\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g;

function tokenize(src: string): Array<{ kind: 'text' | 'action'; v: string }> {
  const out: Array<{ kind: 'text' | 'action'; v: string }> = [];
  let last = 0;
  let trimNext = false;
  for (const m of src.matchAll(ACTION)) {
    let text = src.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1] === '-') text = text.replace(/\s+$/, '');
    out.push({ kind: 'text', v: text });
    out.push({ kind: 'action', v: m[2] });
    trimNext = m[3] === '-';
    last = (m.index ?? 0) + m[0].length;
  }
  let tail = src.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  out.push({ kind: 'text', v: tail });
  return out;
}

function parse(src: string, defines: Map<string, Node[]>): Node[] {
  const root: Node[] = [];
  const stack: Array<{ list: Node[]; node?: Extract<Node, { body: Node[] }>; define?: string; inAlt?: boolean }> = [
    { list: root },
  ];
  const top = () => stack[stack.length - 1];
  for (const tok of tokenize(src)) {
    if (tok.kind === 'text') {
      if (tok.v) top().list.push({ t: 'text', v: tok.v });
      continue;
    }
    const a = tok.v;
    if (a.startsWith('/*')) continue;
    const [word] = a.split(/\s+/, 1);
    if (word === 'if' || word === 'with' || word === 'range') {
      const node = { t: word, expr: a.slice(word.length).trim(), body: [], alt: [] } as Extract<Node, { body: Node[] }>;
      top().list.push(node);
      stack.push({ list: node.body, node });
    } else if (word === 'define') {
      const name = JSON.parse(a.slice(6).trim());
      const body: Node[] = [];
      stack.push({ list: body, define: name });
      defines.set(name, body);
    } else if (word === 'else') {
      const frame = top();
      if (!frame.node || a !== 'else') throw new Error(`unsupported: {{ ${a} }}`);
      frame.list = frame.node.alt;
    } else if (word === 'end') {
      if (stack.length === 1) throw new Error('unbalanced {{ end }}');
      stack.pop();
    } else top().list.push({ t: 'out', expr: a });
  }
  if (stack.length !== 1) throw new Error('missing {{ end }}');
  return root;
}

const truthy = (v: unknown) =>
  !(
    v === undefined ||
    v === null ||
    v === false ||
    v === 0 ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)
  );

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export class HelmRenderer {
  private readonly defines = new Map<string, Node[]>();
  readonly missingValues = new Set<string>();

  constructor(
    private readonly root: Record<string, unknown>,
    helpers: string,
  ) {
    parse(helpers, this.defines);
  }

  render(src: string): string {
    return this.exec(parse(src, this.defines), { dot: this.root, root: this.root, vars: {} });
  }

  private exec(nodes: Node[], scope: Scope): string {
    let out = '';
    for (const n of nodes) {
      if (n.t === 'text') out += n.v;
      else if (n.t === 'out') out += str(this.pipeline(n.expr, scope));
      else if (n.t === 'if') out += this.exec(truthy(this.pipeline(n.expr, scope)) ? n.body : n.alt, scope);
      else if (n.t === 'with') {
        const v = this.pipeline(n.expr, scope);
        out += truthy(v) ? this.exec(n.body, { ...scope, dot: v }) : this.exec(n.alt, scope);
      } else {
        const m = /^(?:\$(\w+)\s*,\s*\$(\w+)\s*:=\s*)?(.+)$/.exec(n.expr) as RegExpExecArray;
        const coll = this.pipeline(m[3], scope);
        const entries = Array.isArray(coll)
          ? coll.map((v, i) => [i, v] as const)
          : Object.entries((coll ?? {}) as object).sort(([a], [b]) => (a < b ? -1 : 1));
        for (const [k, v] of entries) {
          const vars = m[1] ? { ...scope.vars, [m[1]]: k, [m[2]]: v } : scope.vars;
          out += this.exec(n.body, { ...scope, dot: v, vars });
        }
      }
    }
    return out;
  }

  private pipeline(expr: string, scope: Scope): unknown {
    const tokens = expr.match(/"(?:[^"\\]|\\.)*"|\(|\)|\||[^\s()|]+/g) ?? [];
    let pos = 0;
    const parsePipe = (): unknown[][] => {
      const cmds: unknown[][] = [[]];
      while (pos < tokens.length && tokens[pos] !== ')') {
        const tok = tokens[pos++];
        if (tok === '|') cmds.push([]);
        else if (tok === '(') {
          cmds[cmds.length - 1].push({ pipe: parsePipe() });
          pos++;
        } else cmds[cmds.length - 1].push(tok);
      }
      return cmds;
    };
    const run = (cmds: unknown[][]): unknown => {
      let piped: unknown[] = [];
      for (const cmd of cmds) {
        const [head, ...rest] = cmd;
        const args = rest.map((a) => this.term(a, scope, run));
        if (typeof head === 'string' && FUNCS[head]) piped = [(FUNCS[head] as Func).call(this, ...args, ...piped)];
        else if (rest.length || piped.length) throw new Error(`unsupported: ${expr}`);
        else piped = [this.term(head, scope, run)];
      }
      return piped[0];
    };
    return run(parsePipe());
  }

  private term(t: unknown, scope: Scope, run: (c: unknown[][]) => unknown): unknown {
    if (typeof t === 'object' && t !== null) return run((t as { pipe: unknown[][] }).pipe);
    const s = t as string;
    if (s.startsWith('"')) return JSON.parse(s);
    if (/^-?\d+$/.test(s)) return Number(s);
    if (s === 'true' || s === 'false') return s === 'true';
    let base: unknown;
    let path: string;
    if (s.startsWith('$')) {
      const m = /^\$(\w*)(.*)$/.exec(s) as RegExpExecArray;
      base = m[1] ? scope.vars[m[1]] : scope.root;
      path = m[2];
    } else if (s.startsWith('.')) {
      base = scope.dot;
      path = s === '.' ? '' : s;
    } else throw new Error(`unknown function or term: ${s}`);
    let v = base;
    for (const key of path.split('.').filter(Boolean)) {
      const next = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      if (next === undefined && base === scope.root && path.startsWith('.Values')) this.missingValues.add(path);
      v = next;
    }
    return v;
  }

  include(name: string, dot: unknown): string {
    const body = this.defines.get(name);
    if (!body) throw new Error(`include of unknown template ${name}`);
    return this.exec(body, { dot, root: this.root, vars: {} });
  }
}

const indent = (n: number, s: unknown) =>
  str(s)
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');

type Func = (this: HelmRenderer, ...a: unknown[]) => unknown;

const FUNCS: Record<string, (this: HelmRenderer, ...a: never[]) => unknown> = {
  include(name: string, dot: unknown) {
    return this.include(name, dot);
  },
  printf: (fmt: string, ...args: unknown[]) => fmt.replace(/%[sdv]/g, () => str(args.shift())),
  toYaml: (v: unknown) => (v === undefined || v === null ? '' : stringify(v).trimEnd()),
  nindent: (n: number, s: unknown) => `\n${indent(n, s)}`,
  indent,
  quote: (s: unknown) => JSON.stringify(str(s)),
  default: (d: unknown, v: unknown) => (truthy(v) ? v : d),
  required: (msg: string, v: unknown) => {
    if (!truthy(v)) throw new Error(`required: ${msg}`);
    return v;
  },
  join: (sep: string, list: unknown[]) => (list ?? []).map(str).join(sep),
  trunc: (n: number, s: unknown) => str(s).slice(0, n),
  trimSuffix: (suffix: string, s: unknown) => (str(s).endsWith(suffix) ? str(s).slice(0, -suffix.length) : str(s)),
  replace: (from: string, to: string, s: unknown) => str(s).split(from).join(to),
  sha256sum: (s: unknown) => createHash('sha256').update(str(s)).digest('hex'),
  contains: (sub: string, s: unknown) => str(s).includes(sub),
  not: (v: unknown) => !truthy(v),
  dict: (...kv: unknown[]) => {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < kv.length; i += 2) o[str(kv[i])] = kv[i + 1];
    return o;
  },
};

/** Renders every file of `chartDir/templates` (except helpers) with these values, like `helm template`. */
export function renderChart(chartDir: string, values: Record<string, unknown>, releaseName = 'rel'): RenderResult {
  const chart = parseChartYaml(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8'));
  const root = {
    Values: values,
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
    Release: { Name: releaseName, Namespace: 'default', Service: 'Helm' },
  };
  const dir = join(chartDir, 'templates');
  const names = readdirSync(dir);
  const helpers = names
    .filter((n) => n.endsWith('.tpl'))
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('\n');
  const renderer = new HelmRenderer(root, helpers);
  const files: Record<string, string> = {};
  for (const name of names.filter((n) => !n.endsWith('.tpl')))
    files[name] = renderer.render(readFileSync(join(dir, name), 'utf8'));
  return { files, missingValues: [...renderer.missingValues].sort() };
}

function parseChartYaml(text: string): { name: string; version: string; appVersion: string } {
  const get = (k: string) => (new RegExp(`^${k}:\\s*"?([^"\\n]+)"?`, 'm').exec(text) ?? [])[1] ?? '';
  return { name: get('name'), version: get('version'), appVersion: get('appVersion') };
}

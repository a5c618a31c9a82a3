import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { generateOpenApi } from '../../src/openapi-document';

/**
 * What client generators (openapi-typescript, openapi-generator, …) need from openapi.yaml besides validity: a stable
 * operationId per operation (method names), named components for the shared shapes (type names instead of `def-N`
 * or inline copies), a license, and a clean lint with Redocly's recommended ruleset.
 */
const ROOT = path.resolve(__dirname, '../../../..');
const COMMITTED = path.join(ROOT, 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;
interface Doc {
  info: { license?: { name?: string; identifier?: string; url?: string } };
  paths: Record<string, Record<string, Json & { operationId?: string; responses?: Record<string, Json> }>>;
  components?: { schemas?: Record<string, Json> };
}

let doc: Doc;
beforeAll(async () => {
  doc = parse(await generateOpenApi()) as Doc;
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([route, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ route, method, op: item[method] })),
  );

/** Every `$ref` under a node, as the component names it points to. */
function refs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value.replace('#/components/schemas/', ''));
      else refs(value, found);
    }
  }
  return found;
}

const okSchema = (route: string, method: string) => {
  const ok = doc.paths[route][method].responses?.['200'] as { content?: Record<string, { schema?: Json }> } | undefined;
  return ok?.content?.['application/json']?.schema;
};

describe('operationId', () => {
  it('every operation has one, unique, usable as a method name', () => {
    const ids = operations().map(({ op }) => op.operationId);
    const missing = operations()
      .filter(({ op }) => typeof op.operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId))
      .map(({ route, method }) => `${method.toUpperCase()} ${route}`);
    expect(missing).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('is derived from the path (and the method where one path has several)', () => {
    const id = (route: string, method: string) => doc.paths[route][method].operationId;
    expect(id('/sign-in/email', 'post')).toBe('signInEmail');
    expect(id('/get-session', 'get')).toBe('getSession');
    expect(id('/admin/list-users', 'get')).toBe('adminListUsers');
    expect(id('/organization/accept-invitation', 'post')).toBe('organizationAcceptInvitation');
    expect(id('/api-key/create', 'post')).toBe('apiKeyCreate');
    expect(id('/reset-password/{token}', 'get')).toBe('resetPasswordByToken');
    expect(id('/reset-password', 'post')).toBe('resetPassword');
    expect(id('/callback/{providerId}', 'get')).toBe('callbackByProviderIdGet');
    expect(id('/callback/{providerId}', 'post')).toBe('callbackByProviderIdPost');
  });
});

describe('named components', () => {
  it('no def-N: the shared shapes are components named for what they are', () => {
    const names = Object.keys(doc.components?.schemas ?? {});
    expect(names.filter((n) => /^def-\d+$/.test(n))).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining(['User', 'Session', 'Organization', 'Member', 'Invitation', 'Team', 'ApiKey', 'Error']),
    );
    expect(JSON.stringify(doc)).not.toMatch(/def-\d/);
  });

  it('operations reference them instead of repeating them inline', () => {
    expect(okSchema('/get-session', 'get')).toEqual({
      anyOf: [{ $ref: '#/components/schemas/SessionWithUser' }, { type: 'null' }],
    });
    expect(refs(doc.components?.schemas?.SessionWithUser).sort()).toEqual(['Session', 'User']);
    expect(okSchema('/admin/get-user', 'get')).toEqual({ $ref: '#/components/schemas/User' });
    expect(refs(okSchema('/admin/list-users', 'get'))).toEqual(['User']);
    expect(refs(okSchema('/organization/list-teams', 'get'))).toEqual(['Team']);
    expect(refs(okSchema('/api-key/get', 'get'))).toEqual(['ApiKey']);
    for (const { route, method, op } of operations()) {
      for (const range of ['4XX', '5XX']) {
        const schema = (op.responses?.[range] as { content?: Record<string, { schema?: Json }> })?.content?.[
          'application/json'
        ]?.schema;
        expect({ at: `${method.toUpperCase()} ${route} ${range}`, schema }).toEqual({
          at: `${method.toUpperCase()} ${route} ${range}`,
          schema: { $ref: '#/components/schemas/Error' },
        });
      }
    }
    // A component's title is its name; no copy of a component is left inline anywhere in the document.
    const names = new Set(Object.keys(doc.components?.schemas ?? {}));
    const inline: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${where}/${i}`);
      } else if (node && typeof node === 'object') {
        const title = (node as Json).title;
        if (typeof title === 'string' && names.has(title) && !where.endsWith(`/schemas/${title}`))
          inline.push(`${where}: ${title}`);
        for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
      }
    };
    walk(doc, '#');
    expect(inline).toEqual([]);
  });
});

it('info.license is set', () => {
  expect(doc.info.license?.name).toEqual(expect.any(String));
  expect(doc.info.license?.identifier ?? doc.info.license?.url).toEqual(expect.any(String));
});

describe('Redocly lint (recommended ruleset)', () => {
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  const lint = async (file: string) => {
    // --format=json answers the problems on stdout; the exit code is non-zero on errors, so it is not relied upon.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format=json', '--max-problems=1000', file],
      {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return JSON.parse(stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
  };

  it('reports no error and no warning on openapi.yaml', async () => {
    const result = await lint(COMMITTED);
    const problems = result.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('the ignore file beside it holds only redirect-only operations (no 2xx by design), each still documented', () => {
    // Redocly keys the ignore file by the API file's path relative to it, then rule, then JSON pointers.
    const ignored = parse(readFileSync(path.join(ROOT, '.redocly.lint-ignore.yaml'), 'utf8')) as Record<
      string,
      Record<string, string[]>
    >;
    expect(Object.keys(ignored)).toEqual(['openapi.yaml']);
    expect(Object.keys(ignored['openapi.yaml'])).toEqual(['operation-2xx-response']);
    const pointers = ignored['openapi.yaml']['operation-2xx-response'];
    expect(pointers.length).toBeGreaterThan(0);
    for (const pointer of pointers) {
      const match = /^#\/paths\/(.+)\/(get|post)\/responses$/.exec(pointer);
      expect(match).not.toBeNull();
      const route = match![1].replaceAll('~1', '/').replaceAll('~0', '~');
      const responses = doc.paths[route]?.[match![2]]?.responses ?? {};
      expect({ pointer, codes: Object.keys(responses).filter((c) => /^[23]/.test(c)) }).toEqual({
        pointer,
        codes: ['302'],
      });
    }
  });

  it('the lint bites: a document without operationIds and with an unused component warns', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { stringify } = await import('yaml');
    const broken = structuredClone(doc);
    delete broken.paths['/get-session'].get.operationId;
    broken.components!.schemas!.Unused = { type: 'string' };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-lint-')), 'openapi.yaml');
    writeFileSync(file, stringify(broken));
    const result = await lint(file);
    expect(result.problems.map((p) => p.ruleId).sort()).toEqual(
      expect.arrayContaining(['no-unused-components', 'operation-operationId']),
    );
  }, 60_000);
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { generateOpenApi } from '../../src/openapi-document';
import { startTestApp, type TestApp } from '../setup/app';

/**
 * The committed OpenAPI document (/openapi.yaml) is generated from the route schemas and is the contract typed
 * clients are generated from (paths relative to the base path, every error answer typed).
 */
const COMMITTED = path.resolve(__dirname, '../../../../openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;
interface Operation {
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
}
interface Doc {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([route, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ route, method, op: item[method] as Operation })),
  );

let yamlText: string;
beforeAll(async () => {
  yamlText = await generateOpenApi();
});

describe('openapi.yaml', () => {
  it('is up to date with the route schemas', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    if (committed === yamlText) return;
    const [was, now] = [committed.split('\n'), yamlText.split('\n')];
    let line = 0;
    while (line < Math.max(was.length, now.length) && was[line] === now[line]) line++;
    throw new Error(
      `openapi.yaml is stale: run \`npm run openapi\` (first difference at line ${line + 1}: ` +
        `committed ${JSON.stringify(was[line])}, generated ${JSON.stringify(now[line])})`,
    );
  });

  it('is a valid OpenAPI 3.1 document (official 3.1 JSON schema, via swagger-parser)', async () => {
    const doc = parse(yamlText) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    // swagger-parser 10.1.1 validates 3.1 against the official 3.1 JSON schema (its `validate.spec` pass is a no-op
    // for OpenAPI 3.x), resolving every $ref on the way. validate() dereferences in place: give it a copy.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never, {
      validate: { schema: true, spec: true },
    });
    expect(Object.keys((validated as unknown as Doc).paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });

  it('the validator bites: a broken document is refused', async () => {
    const doc = parse(yamlText) as Doc;
    const [first] = operations(doc);
    delete first.op.responses!['200'].description; // a Response Object must have a description
    await expect(SwaggerParser.validate(doc as never)).rejects.toThrow(/description/);
    await expect(
      SwaggerParser.validate({ ...parse(yamlText), paths: { '/x': { get: { responses: 'none' } } } } as never),
    ).rejects.toThrow();
  });

  it('every schema in it is a valid JSON Schema 2020-12 (what 3.1 uses), and every path parameter is declared', async () => {
    // The 3.1 JSON schema checks the document's structure; the Schema Objects themselves are compiled here.
    const doc = (await SwaggerParser.dereference(parse(yamlText) as never)) as unknown as Doc;
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addKeyword('example');
    const problems: string[] = [];
    let compiled = 0;
    const check = (where: string, schema: unknown) => {
      try {
        ajv.compile(schema as Json);
        compiled++;
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
      }
    };
    for (const { route, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${route}`;
      for (const [status, response] of Object.entries(op.responses ?? {}))
        for (const [type, media] of Object.entries(response.content ?? {}))
          check(`${where} ${status} ${type}`, media.schema);
      const body = (op as { requestBody?: { content?: Record<string, { schema?: Json }> } }).requestBody;
      for (const [type, media] of Object.entries(body?.content ?? {})) check(`${where} body ${type}`, media.schema);
      for (const p of op.parameters ?? []) check(`${where} ${p.in} ${p.name}`, (p as { schema?: Json }).schema);
      const templated = [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      if (JSON.stringify(declared.map((p) => p.name).sort()) !== JSON.stringify(templated))
        problems.push(`${where}: path parameters ${JSON.stringify(templated)} not all declared`);
      for (const p of declared)
        if (p.required !== true) problems.push(`${where}: path parameter ${p.name} not required`);
    }
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
      check(`components.schemas.${name}`, schema);
    expect(problems).toEqual([]);
    expect(compiled).toBeGreaterThan(10);
  });

  it('every operation documents its success (200, or 302 for a link) and 4XX/5XX answers of the {code, message} shape', async () => {
    const doc = (await SwaggerParser.dereference(parse(yamlText) as never)) as unknown as Doc;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const { route, method, op } of ops) {
      const responses = op.responses ?? {};
      if (!responses['200'] && !responses['302']) missing.push(`${method.toUpperCase()} ${route}: no 200 or 302`);
      for (const range of ['4XX', '5XX']) {
        const schema = responses[range]?.content?.['application/json']?.schema as
          | { type?: string; required?: string[]; properties?: Record<string, { type?: string }> }
          | undefined;
        const ok =
          schema?.type === 'object' &&
          schema.required?.includes('code') &&
          schema.required?.includes('message') &&
          schema.properties?.code?.type === 'string' &&
          schema.properties?.message?.type === 'string';
        if (!ok) missing.push(`${method.toUpperCase()} ${route}: no ${range} {code, message}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('paths are relative to servers[0].url = /api/auth', () => {
    const doc = parse(yamlText) as Doc;
    expect(doc.servers?.[0]?.url).toBe('/api/auth');
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/get-session', '/sign-in/email', '/sign-up/email', '/ok']));
    for (const p of paths) {
      expect(p.startsWith('/')).toBe(true);
      expect(p.startsWith('/api/auth')).toBe(false);
      expect(p.startsWith('/reference')).toBe(false); // the docs UI is hidden from the document
    }
  });
});

describe('API reference (swagger-ui) on the running service', () => {
  let t: TestApp;
  beforeAll(async () => {
    // as the generated document is built: with the sign-in methods that are off by default turned on, and the
    // OpenID provider (which needs the hosted pages: a stand-in build here; their routes are not in the document)
    const pages = mkdtempSync(path.join(tmpdir(), 'reference-pages-'));
    writeFileSync(
      path.join(pages, 'index.html'),
      '<!doctype html><html><head><title>pages</title></head><body></body></html>',
    );
    t = await startTestApp(
      {},
      {
        MAGIC_LINK_ENABLED: 'true',
        EMAIL_OTP_ENABLED: 'true',
        OIDC_PROVIDER_ENABLED: 'true',
        HOSTED_PAGES_ENABLED: 'true',
        HOSTED_PAGES_DIR: pages,
      },
    );
  });
  afterAll(() => t?.close());

  it('GET /api/auth/reference answers the HTML page (directly or by redirect)', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/api/auth/reference' });
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 3; hops++) {
      const next = new URL(res.headers.location as string, 'http://localhost/api/auth/reference');
      res = await t.app.inject({ method: 'GET', url: next.pathname });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/swagger-ui/i);
    const slash = await t.app.inject({ method: 'GET', url: '/api/auth/reference/' });
    expect(slash.statusCode).toBe(200);
    expect(slash.headers['content-type']).toMatch(/^text\/html/);
  });

  it('GET /api/auth/reference/json serves the same paths and operations as the generated document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/reference/json' });
    expect(res.statusCode).toBe(200);
    const served = res.json() as Doc;
    const generated = parse(yamlText) as Doc;
    const shape = (doc: Doc) => operations(doc).map(({ route, method }) => `${method.toUpperCase()} ${route}`);
    expect(shape(served).sort()).toEqual(shape(generated).sort());
    expect(served.servers).toEqual(generated.servers);
    expect(served.paths).toEqual(generated.paths);
  });
});

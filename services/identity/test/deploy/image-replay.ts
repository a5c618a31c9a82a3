import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { type Instruction, parseDockerfile, type Stage } from './dockerfile';
import { ROOT, read } from './repo';

/**
 * Replays a Dockerfile's build without a Docker engine, as far as it can run here: each stage the image copies
 * from (and each stage those are built FROM) gets a scratch folder standing for its root file system, receives
 * exactly what its COPY instructions send from the build context (the repository minus .dockerignore), and runs its
 * RUN commands with /bin/sh in its WORKDIR with its ENV and ARG values, as `docker build` would. The image's own
 * stage is then assembled from those stages and the context, but its RUN commands are not run: they run in a base
 * image this machine is not (nginx on Alpine; the Node runtime runs none).
 *
 * What differs from a real build, and why:
 * - The build stages run on this machine's Node.js and npm (the replay refuses a build stage whose base image is not
 *   Node.js's: its commands could not run here); the images pin their own Node.js 22.
 * - npm reads the packages from this machine's npm cache (the one the repository's own `npm ci` filled) before the
 *   registry (`npm_config_prefer_offline`): the same lockfile, without the network.
 * - `npm cache clean --force` (keeps a layer small) is left out: here it would empty that shared cache.
 */

/** Commands left out of a RUN line, each with the reason. */
const LEFT_OUT: Array<[RegExp, string]> = [[/\bnpm cache clean --force\b/g, 'would empty the shared npm cache']];

export interface StageFs {
  name: string;
  /** Folder standing for the stage's `/`. */
  root: string;
  workdir: string;
  env: Record<string, string>;
}

export interface ReplayedImage {
  stages: Stage[];
  /** The replayed build stages, by name. */
  built: Map<string, StageFs>;
  /** The image's own stage, assembled (its RUN commands not run). */
  image: StageFs;
  /** The RUN lines of the image's stage that were not run, and the commands left out of the others. */
  notRun: string[];
  /** Seconds each RUN took, in order. */
  timings: Array<[string, number]>;
  /** A path of the image's file system, in its scratch folder. */
  path(absolute: string): string;
}

export interface ReplayOptions {
  /** Build arguments (`--build-arg`); each ARG's default otherwise. */
  buildArgs?: Record<string, string>;
}

const inside = (root: string, path: string) => join(root, posix.normalize(path));

/** The build context as Docker sends it: files of the repository that .dockerignore does not exclude. */
export class BuildContext {
  private readonly ignore = dockerignore().add(read('.dockerignore'));
  private readonly reincluded = read('.dockerignore')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1).trim());

  ignores(path: string): boolean {
    return this.ignore.ignores(path);
  }

  /** Copies context path `src` (a file, or a folder's contents) to `dest`, leaving out what is ignored. */
  copy(src: string, dest: string): void {
    const from = join(ROOT, src);
    if (src.includes('*') || src.includes('?')) throw new Error(`COPY ${src}: wildcards are not supported here`);
    if (!existsSync(from) || this.ignores(src))
      throw new Error(`COPY ${src}: not in the build context${existsSync(from) ? ' (.dockerignore excludes it)' : ''}`);
    if (!lstatSync(from).isDirectory()) {
      mkdirSync(dirname(dest), { recursive: true });
      cpSync(from, dest);
      return;
    }
    const walk = (rel: string) => {
      mkdirSync(join(dest, rel), { recursive: true });
      for (const name of readdirSync(join(from, rel))) {
        const child = posix.join(src, rel, name);
        const isDir = lstatSync(join(ROOT, child)).isDirectory();
        // An excluded folder is entered only when a `!` line could bring something inside it back.
        if (
          this.ignores(child) &&
          !(isDir && this.reincluded.some((r) => r.startsWith('**') || r.startsWith(`${child}/`)))
        )
          continue;
        if (isDir) walk(posix.join(rel, name));
        else cpSync(join(ROOT, child), join(dest, rel, name));
      }
    };
    walk('');
  }
}

/** COPY's destination: a folder when it ends in `/` or several sources are copied; relative to WORKDIR. */
function destinations(stage: StageFs, args: string[]): Array<[string, string]> {
  const sources = args.slice(0, -1);
  const target = args[args.length - 1];
  const absolute = posix.isAbsolute(target) ? target : posix.join(stage.workdir, target);
  const intoFolder = target.endsWith('/') || sources.length > 1;
  return sources.map((src) => [src, intoFolder ? posix.join(absolute, posix.basename(src)) : absolute]);
}

function runShell(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command}\nexited ${code}; its last output:\n${output}`)),
    );
  });
}

/** The stages the image (the last stage) is made from: its base stages and those it copies from, transitively. */
function neededStages(stages: Stage[]): Set<string> {
  const byName = new Map(stages.map((s) => [s.name, s]));
  const needed = new Set<string>();
  const visit = (stage: Stage) => {
    const refs = [stage.image, ...stage.instructions.map((i) => i.from)].filter(
      (ref): ref is string => !!ref && byName.has(ref),
    );
    for (const ref of refs)
      if (!needed.has(ref)) {
        needed.add(ref);
        visit(byName.get(ref) as Stage);
      }
  };
  visit(stages[stages.length - 1]);
  return needed;
}

export async function replayImageBuild(
  dockerfile: string,
  scratch: string,
  options: ReplayOptions = {},
): Promise<ReplayedImage> {
  const stages = parseDockerfile(read(dockerfile));
  const context = new BuildContext();
  const needed = neededStages(stages);
  const built = new Map<string, StageFs>();
  const notRun: string[] = [];
  const timings: Array<[string, number]> = [];
  // What every RUN gets besides the Dockerfile's ENV and ARG values: this machine's PATH and HOME (npm's cache and
  // settings), nothing of the test's own environment (NODE_ENV=test, npm's variables of the running script).
  const baseEnv: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '/root',
    npm_config_prefer_offline: 'true',
  };

  const start = (stage: Stage, index: number): StageFs => {
    const name = stage.name ?? `stage-${index}`;
    const root = join(scratch, name);
    const parent = built.get(stage.image);
    if (parent) {
      cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true });
      return { name, root, workdir: parent.workdir, env: { ...parent.env } };
    }
    mkdirSync(root, { recursive: true });
    return { name, root, workdir: '/', env: {} };
  };

  const apply = async (fs: StageFs, ins: Instruction, runCommands: boolean) => {
    const unsupported = () => new Error(`${fs.name}: ${ins.keyword} ${ins.args} is not supported by the replay`);
    // Flags that change what lands in the file system (COPY --chown/--link, RUN --mount, FROM --platform).
    if (ins.flags.length && ['FROM', 'COPY', 'RUN'].includes(ins.keyword)) throw unsupported();
    switch (ins.keyword) {
      case 'FROM':
      case 'USER':
      case 'EXPOSE':
      case 'HEALTHCHECK':
      case 'CMD':
      case 'ENTRYPOINT':
      case 'LABEL':
      case 'STOPSIGNAL':
        return; // metadata of the image, no file changes
      case 'WORKDIR':
        if (ins.args.includes('$')) throw unsupported();
        fs.workdir = posix.resolve(fs.workdir, ins.args);
        mkdirSync(inside(fs.root, fs.workdir), { recursive: true });
        return;
      case 'ENV':
      case 'ARG':
        for (const [key, value] of ins.properties) {
          if (value?.includes('$')) throw unsupported();
          fs.env[key] = ins.keyword === 'ARG' ? (options.buildArgs?.[key] ?? value ?? '') : (value ?? '');
        }
        return;
      case 'COPY':
        if (ins.argv.some((a) => a.includes('$'))) throw unsupported();
        for (const [src, dest] of destinations(fs, ins.argv)) {
          if (!ins.from) {
            context.copy(src, inside(fs.root, dest));
            continue;
          }
          const source = built.get(ins.from);
          if (!source) throw new Error(`${fs.name}: COPY --from=${ins.from}: not a stage built here`);
          const from = inside(source.root, src);
          if (!existsSync(from)) throw new Error(`${fs.name}: COPY --from=${ins.from} ${src}: the stage has no ${src}`);
          mkdirSync(dirname(inside(fs.root, dest)), { recursive: true });
          cpSync(from, inside(fs.root, dest), { recursive: true, verbatimSymlinks: true });
        }
        return;
      case 'RUN': {
        if (ins.args.startsWith('[')) throw unsupported();
        if (!runCommands) {
          notRun.push(`${fs.name}: RUN ${ins.args}`);
          return;
        }
        let command = ins.args;
        for (const [pattern, why] of LEFT_OUT)
          command = command.replace(pattern, (left) => {
            notRun.push(`${fs.name}: ${left} (${why})`);
            return 'true';
          });
        const began = Date.now();
        await runShell(command, inside(fs.root, fs.workdir), { ...baseEnv, ...fs.env });
        timings.push([`${fs.name}: ${ins.args}`, (Date.now() - began) / 1000]);
        return;
      }
      default:
        throw unsupported();
    }
  };

  let image: StageFs | undefined;
  for (const [index, stage] of stages.entries()) {
    const last = index === stages.length - 1;
    if (!last && !needed.has(stage.name ?? '')) continue;
    if (!last && !built.has(stage.image) && !stage.image.startsWith('node:'))
      throw new Error(`stage ${stage.name} is built FROM ${stage.image}: only Node.js stages can be replayed here`);
    const fs = start(stage, index);
    for (const ins of stage.instructions) await apply(fs, ins, !last);
    if (last) image = fs;
    else built.set(fs.name, fs);
  }
  const assembled = image as StageFs;
  return {
    stages,
    built,
    image: assembled,
    notRun,
    timings,
    path: (absolute) => inside(assembled.root, posix.resolve(assembled.workdir, absolute)),
  };
}

import { type Arg, type Copy, DockerfileParser, type Env, type From, ModifiableInstruction } from 'dockerfile-ast';

/** One instruction as dockerfile-ast reads it (continuations joined, comments dropped). */
export interface Instruction {
  keyword: string;
  /** The text after the keyword: flags, then arguments. */
  args: string;
  /** The arguments (no flags) as the parser splits them (quotes kept). */
  argv: string[];
  /** COPY's --from stage or image. */
  from?: string;
  /** Every flag but COPY's --from (COPY --chown, FROM --platform, RUN --mount, …) as written. */
  flags: string[];
  /** ENV and ARG: each name with its value (null for an ARG without a default). */
  properties: Array<[string, string | null]>;
}

/** A build stage: its base (an image or an earlier stage), its `AS` name, its instructions with FROM first. */
export interface Stage {
  name: string | undefined;
  image: string;
  instructions: Instruction[];
}

function properties(keyword: string, ins: unknown): Array<[string, string | null]> {
  if (keyword === 'ENV') return (ins as Env).getProperties().map((p) => [p.getName(), p.getValue()]);
  const arg = keyword === 'ARG' ? (ins as Arg).getProperty() : null;
  return arg ? [[arg.getName(), arg.getValue()]] : [];
}

/** The stages of a Dockerfile, parsed by dockerfile-ast (the parser dockerfile-utils validates with). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const ins of DockerfileParser.parse(text).getInstructions()) {
    const keyword = ins.getKeyword();
    const from = keyword === 'COPY' ? ((ins as Copy).getFromFlag()?.getValue() ?? undefined) : undefined;
    const flags = ins instanceof ModifiableInstruction ? ins.getFlags() : [];
    if (keyword === 'FROM') {
      const base = ins as From;
      stages.push({ name: base.getBuildStage() ?? undefined, image: base.getImage() ?? '', instructions: [] });
    }
    // A global ARG (before the first FROM) would change what FROM means: none is used, so none is read.
    if (!stages.length) throw new Error(`${keyword} before the first FROM is not supported by these tests`);
    stages[stages.length - 1].instructions.push({
      keyword,
      args: [...flags.map((f) => f.toString()), ins.getArgumentsContent() ?? ''].join(' ').trim(),
      argv: ins.getArguments().map((a) => a.getValue()),
      from,
      flags: flags.filter((f) => !(keyword === 'COPY' && f.getName() === 'from')).map((f) => f.toString()),
      properties: properties(keyword, ins),
    });
  }
  return stages;
}

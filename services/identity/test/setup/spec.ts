import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The product specification, docs/SPEC.md. */
export function readSpec(): string {
  return readFileSync(resolve(__dirname, '../../../../docs/SPEC.md'), 'utf8');
}

/** The text of the section (### or ##) whose heading starts with `heading`, up to the next heading of that level. */
export function section(spec: string, heading: string): string {
  const start = spec.indexOf(heading);
  if (start < 0) throw new Error(`spec has no section ${heading}`);
  const level = heading.match(/^#+/)![0];
  const rest = spec.slice(start + heading.length);
  const end = rest.search(new RegExp(`\\n${level} `));
  return end < 0 ? rest : rest.slice(0, end);
}

/** A page of the documentation, docs/<name>. */
export function readDoc(name: string): string {
  return readFileSync(resolve(__dirname, '../../../../docs', name), 'utf8');
}

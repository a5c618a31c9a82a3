import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ENV_SETTINGS } from '../../src/config/env-settings';

/** Repository root (services/identity/test/deploy → ../../../..). */
export const ROOT = resolve(__dirname, '../../../..');
export const CHART_DIR = join(ROOT, 'deploy/helm/identity');

export const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Environment variables the service reads: ENV_SETTINGS, plus MIGRATE_ON_START (read by src/main.ts itself). */
export const KNOWN_ENV = new Set([...ENV_SETTINGS.map((s) => s.name), 'MIGRATE_ON_START']);

export function readYaml<T = Record<string, unknown>>(path: string): T {
  return parse(read(path), { merge: true }) as T;
}

/** Every document of a multi-document YAML text; throws on the first syntax error. */
export function parseDocs(text: string, name: string): Record<string, unknown>[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${name}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS();
    return value === null || value === undefined ? [] : [value as Record<string, unknown>];
  });
}

/** Files under dir (relative to ROOT) whose name matches. */
export function listFiles(dir: string, match: RegExp): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs)) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (match.test(name)) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, dir));
  return out.sort();
}

/** `${VAR:-default}` / `${VAR:?message}` / `${VAR}` → the default (or '') as compose would without a .env. */
export function composeDefault(value: string): string {
  return value.replace(/(?<!\$)\$\{(\w+)(?::?([-?])([^}]*))?\}/g, (_m, _name, op, arg) => (op === '-' ? arg : ''));
}

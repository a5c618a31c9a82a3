import type { Config } from '../config';
import { CONSOLE_PATH } from './console';

/**
 * The start-up line: where this instance serves the API (and its reference), and the admin console and the sign-in
 * pages when they are on, as addresses a browser can open.
 */
export function startupNote(config: Config): { fields: Record<string, string>; msg: string } {
  const fields: Record<string, string> = { publicUrl: config.publicUrl, basePath: config.basePath };
  const parts = [`identity API on ${config.publicUrl}${config.basePath} (reference at ${config.basePath}/reference)`];
  if (config.consoleEnabled) {
    fields.consoleUrl = `${config.publicUrl}${CONSOLE_PATH}/`;
    parts.push(`admin console at ${fields.consoleUrl}`);
  }
  if (config.hostedPages.enabled) {
    fields.hostedPagesUrl = `${config.publicUrl}${config.hostedPages.path}/sign-in`;
    parts.push(`sign-in pages at ${fields.hostedPagesUrl}`);
  }
  return { fields, msg: parts.join(', ') };
}

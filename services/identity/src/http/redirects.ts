import type { preHandlerHookHandler } from 'fastify';
import { ApiError, type ErrorCode } from '../errors';
import type { TrustedOrigins } from './origins';

const BASE = 'http://relative.invalid';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const ENCODED_SEPARATOR = /%2f|%5c/i;
/** How many layers of percent-encoding are looked through (`%252e` is `%2e` is `.`); deeper nesting is refused. */
const DECODE_LAYERS = 4;

/**
 * spec §5: a redirect target is a relative path or a URL on a trusted origin. A relative value is accepted only
 * as a plain path, so that neither a browser nor the application behind the path can read it as another host or
 * another path: it starts with a single `/`; it holds no backslash and no control character, written or
 * percent-encoded, anywhere; and its path (before `?` or `#`) holds no encoded separator (`%2F`, `%5C`) and no dot
 * segment (`.` or `..`), whether written or encoded (`%2e%2e`, `%252e`). The query may carry encoded slashes
 * (`?next=%2Fhome`), as it does not move the path.
 */
export function isSafeRedirect(target: string, trusted: TrustedOrigins): boolean {
  if (target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/')) return trusted.has(target) && /^https?:\/\//i.test(target);
  return isPlainPath(target);
}

function isPlainPath(target: string): boolean {
  const end = target.search(/[?#]/);
  let path = end === -1 ? target : target.slice(0, end);
  let whole = target;
  for (let layer = 0; ; layer++) {
    if (/^\/[/\\]/.test(whole) || whole.includes('\\') || CONTROL.test(whole)) return false;
    if (ENCODED_SEPARATOR.test(path) || path.split('/').some((s) => s === '.' || s === '..')) return false;
    const next = decoded(whole);
    const nextPath = decoded(path);
    if (next === null || nextPath === null) return false;
    if (next === whole && nextPath === path) break;
    if (layer === DECODE_LAYERS) return false;
    whole = next;
    path = nextPath;
  }
  try {
    return new URL(target, BASE).origin === BASE;
  } catch {
    return false;
  }
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** `target` (already checked by isSafeRedirect) with `params` added to its query; relative stays relative. */
export function redirectTarget(target: string, params: Record<string, string> = {}): string {
  const url = new URL(target, BASE);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

const CODES: Record<string, ErrorCode> = {
  callbackURL: 'INVALID_CALLBACK_URL',
  redirectTo: 'INVALID_REDIRECT_TO',
  errorCallbackURL: 'INVALID_ERROR_CALLBACK_URL',
  newUserCallbackURL: 'INVALID_NEW_USER_CALLBACK_URL',
};

export type RedirectField = 'callbackURL' | 'redirectTo' | 'errorCallbackURL' | 'newUserCallbackURL';

/** preHandler refusing untrusted redirect parameters in the body or query with 403 (spec §5). */
export function checkRedirects(trusted: TrustedOrigins, ...fields: RedirectField[]): preHandlerHookHandler {
  return async (request) => {
    const sources = [request.body, request.query] as Array<Record<string, unknown> | undefined>;
    for (const source of sources) {
      if (!source || typeof source !== 'object') continue;
      for (const field of fields) {
        const value = source[field];
        if (value !== undefined && (typeof value !== 'string' || !isSafeRedirect(value, trusted)))
          throw new ApiError(CODES[field]);
      }
    }
  };
}

import type { preHandlerHookHandler } from 'fastify';
import { ApiError, type ErrorCode } from '../errors';
import type { TrustedOrigins } from './origins';

const BASE = 'http://relative.invalid';

/**
 * spec §5: a redirect target is a relative path or a URL on a trusted origin. A relative path is accepted only
 * when no browser could read it as another host: `//evil`, `/\evil`, encoded slashes or backslashes, control
 * characters and anything that resolves off the placeholder origin are refused.
 */
export function isSafeRedirect(target: string, trusted: TrustedOrigins): boolean {
  if (target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/')) return trusted.has(target) && /^https?:\/\//i.test(target);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return false;
  let decoded = target;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: as above, after decoding
    if (/^\/[/\\]|[\\\u0000-\u001f\u007f]/.test(next)) return false;
    if (next === decoded) break;
    decoded = next;
  }
  if (/^\/[/\\]/.test(target)) return false;
  try {
    return new URL(target, BASE).origin === BASE;
  } catch {
    return false;
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

import type { Route } from './links';

/**
 * A mailed link's token leaves the address bar and the history entry before anything is shown (main.tsx); the
 * pages that still need it after a reload or a sign-in in the same tab (reset password, confirm deletion, sign in
 * with a mailed link) keep it in this tab's sessionStorage until it is used or refused. Other tabs and a closed tab never see it.
 */
const KEPT: readonly Route[] = ['reset-password', 'delete-account', 'magic-link'];
const key = (route: Route) => `hosted-pages.token.${route}`;

/** Runs a storage call; a browser that refuses storage (privacy settings) just keeps nothing. */
function storage<T>(run: (store: Storage) => T, fallback: T): T {
  try {
    return run(window.sessionStorage);
  } catch {
    return fallback;
  }
}

/**
 * The page's token: the one in the address (then kept for the page), else the one kept earlier in this tab. A link
 * that came back with `?error=` drops what was kept.
 */
export function arrivalToken(route: Route, fromAddress: string | null, linkError: string | null): string | null {
  if (!KEPT.includes(route)) return fromAddress;
  if (fromAddress) {
    storage((s) => s.setItem(key(route), fromAddress), undefined);
    return fromAddress;
  }
  if (linkError) {
    forgetToken(route);
    return null;
  }
  return storage((s) => s.getItem(key(route)), null);
}

/** The token was used, or the API refused it: nothing is kept any more. */
export function forgetToken(route: Route): void {
  storage((s) => s.removeItem(key(route)), undefined);
}

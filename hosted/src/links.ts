/** The pages, by the path under the pages' base (`/auth/` when the service serves them). */
export const ROUTES = [
  'sign-in',
  'sign-up',
  'forgot-password',
  'reset-password',
  'email-verified',
  'email-changed',
  'sign-out',
  'signed-out',
  'account-deleted',
  'delete-account',
  'invitation',
  'error',
  'two-factor',
  'security',
  'magic-link',
  'email-code',
] as const;
export type Route = (typeof ROUTES)[number];

/** The route of `pathname` under `basePath` (`/auth/`); the base itself is the sign-in page; null for no page. */
export function routeOf(pathname: string, basePath: string): Route | null {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  if (pathname === base || `${pathname}/` === base) return 'sign-in';
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length).replace(/\/+$/, '');
  // The invitation page carries the invitation's id as its last segment (the mailed link's shape).
  if (/^invitation\/[^/]+$/.test(rest)) return 'invitation';
  return (ROUTES as readonly string[]).includes(rest) ? (rest as Route) : null;
}

/**
 * The values a page passes on to the next one: where to return, where a user the sign-in registers goes instead
 * (a mailed sign-in link's `newUserCallbackURL`), and the language asked for.
 */
export interface Carry {
  callbackURL: string | null;
  newUserCallbackURL?: string | null;
  lang: string | null;
}

const query = (params: Record<string, string | null | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** A link to another page, relative to the document's <base>, keeping the callback and the language. */
export const pageHref = (route: Route, carry: Carry, extra: Record<string, string> = {}): string =>
  `${route}${query({
    callbackURL: carry.callbackURL,
    newUserCallbackURL: carry.newUserCallbackURL,
    lang: carry.lang,
    ...extra,
  })}`;

/**
 * The address of a page as the API should redirect to it (a mailed link's callbackURL, a provider's return): a
 * plain path when the page and the API share an origin (the service's own pages), else the full URL, whose origin
 * the service must trust.
 */
export function pageTarget(
  route: Route,
  carry: Carry,
  location: { baseURI: string; apiBase: string },
  extra: Record<string, string> = {},
): string {
  const url = new URL(pageHref(route, carry, extra), location.baseURI);
  return url.origin === new URL(location.apiBase).origin ? `${url.pathname}${url.search}` : url.toString();
}

/** The URL without the named query values (a used token must not stay in the address bar or the history). */
export function withoutParams(href: string, names: string[]): string {
  const url = new URL(href);
  for (const name of names) url.searchParams.delete(name);
  return url.toString();
}

import { createAuthClient } from 'better-auth/client';
import { PUBLIC_URL } from './app';
import { CookieJar } from './fixtures';

export interface Sent {
  method: string;
  path: string;
  body: string | null;
}

/**
 * A browser of our own for the published better-auth client over real HTTP: a cookie jar (no
 * domain matching: one server), the page's Origin, and a log of what was sent. Pass `fetchOptions` to
 * `createAuthClient` together with the plugins a test needs.
 */
export function browserFetch() {
  const jar = new CookieJar();
  const sent: Sent[] = [];
  const customFetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set('origin', PUBLIC_URL);
    if (jar.cookies.size) headers.set('cookie', jar.header());
    const url = new URL(input instanceof Request ? input.url : input.toString());
    sent.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: typeof init?.body === 'string' ? init.body : null,
    });
    const response = await fetch(input, { ...init, headers });
    jar.store(response);
    return response;
  };
  return { jar, sent, fetchOptions: { customFetchImpl } };
}

/** The plain client (no plugins) in a browser of its own. */
export function browserClient(baseURL: string) {
  const { jar, sent, fetchOptions } = browserFetch();
  return { client: createAuthClient({ baseURL, fetchOptions }), jar, sent };
}

import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The typed client, generated from ../openapi.yaml (never from server code). Cookies go with every call. */
export type ApiClient = ReturnType<typeof createClient<paths>>;

export interface ClientOptions {
  /** Where the API lives; the console is served from the API's origin, so by default `<origin>/api/auth`. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * Where the API is: the `identity-api` meta tag (the identity service fills it when it serves the console), else
 * VITE_API_URL from the build (a console on its own origin; that origin must be in the API's TRUSTED_ORIGINS),
 * else `<this origin>/api/auth`. Relative values resolve against this origin.
 */
export function apiBaseUrl(): string {
  const origin = globalThis.location?.origin ?? 'http://localhost';
  const meta = globalThis.document?.querySelector('meta[name="identity-api"]')?.getAttribute('content');
  const configured = meta || import.meta.env?.VITE_API_URL;
  if (!configured) return `${origin}/api/auth`;
  return new URL(configured, origin).toString().replace(/\/+$/, '');
}

export function makeClient(options: ClientOptions = {}): ApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? apiBaseUrl(),
    credentials: 'include',
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
}

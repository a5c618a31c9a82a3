import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The typed client, generated from ../openapi.yaml (never from server code). Cookies go with every call. */
export type ApiClient = ReturnType<typeof createClient<paths>>;

export interface ClientOptions {
  /** Where the API lives; the console is served from the API's origin, so by default `<origin>/api/auth`. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
}

export function apiBaseUrl(): string {
  return `${globalThis.location?.origin ?? 'http://localhost'}/api/auth`;
}

export function makeClient(options: ClientOptions = {}): ApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? apiBaseUrl(),
    credentials: 'include',
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
}

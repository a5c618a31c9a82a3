import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PUBLIC_URL } from './app';

export const PASSWORD = 'correct horse battery staple';

export const uniqueEmail = (tag = 'user'): string => `${tag}-${randomBytes(6).toString('hex')}@example.com`;

/** A browser's cookie store, enough for tests: Set-Cookie in, Cookie out (parsed, never matched as text). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  /** Attributes of the last Set-Cookie per name, lowercased keys. */
  readonly attributes = new Map<string, Record<string, string | true>>();

  store(response: LightMyRequestResponse | Response): this {
    const raw =
      'getSetCookie' in response.headers
        ? (response.headers as Headers).getSetCookie()
        : ([] as string[]).concat((response as LightMyRequestResponse).headers['set-cookie'] ?? []);
    for (const line of raw) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const parsed: Record<string, string | true> = {};
      for (const a of attrs) {
        const [k, v] = a.split('=');
        parsed[k.toLowerCase()] = v ?? true;
      }
      this.attributes.set(name, parsed);
      const expired =
        parsed['max-age'] === '0' || (parsed.expires && Date.parse(parsed.expires as string) < Date.now());
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }
}

export const TOKEN_COOKIE = 'better-auth.session_token';
export const DATA_COOKIE = 'better-auth.session_data';

export interface CallOptions {
  jar?: CookieJar;
  origin?: string | null;
  headers?: Record<string, string>;
  bearer?: string;
}

/** A POST as a same-origin browser page would send it (trusted Origin, cookies from the jar). */
export async function post(app: FastifyInstance, url: string, body?: unknown, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? PUBLIC_URL;
  if (options.jar?.cookies.size) headers.cookie = options.jar.header();
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await app.inject({
    method: 'POST',
    url: `/api/auth${url}`,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  options.jar?.store(response);
  return response;
}

export async function get(app: FastifyInstance, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.jar?.cookies.size) headers.cookie = options.jar.header();
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await app.inject({ method: 'GET', url: `/api/auth${url}`, headers });
  options.jar?.store(response);
  return response;
}

export interface SignedUp {
  email: string;
  password: string;
  userId: string;
  token: string;
  jar: CookieJar;
}

/** A new user, signed in: its id, session token and a cookie jar holding both session cookies. */
export async function signUp(
  app: FastifyInstance,
  fields: { email?: string; password?: string; name?: string; language?: string } = {},
) {
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? PASSWORD;
  const jar = new CookieJar();
  const body = { name: fields.name ?? 'Test User', email, password, language: fields.language };
  const res = await post(app, '/sign-up/email', body, { jar });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const answer = res.json();
  return { email, password, userId: answer.user.id, token: answer.token, jar } as SignedUp;
}

export async function signIn(app: FastifyInstance, email: string, password = PASSWORD, extra: object = {}) {
  const jar = new CookieJar();
  const res = await post(app, '/sign-in/email', { email, password, ...extra }, { jar });
  return { res, jar, token: res.statusCode === 200 ? (res.json().token as string) : undefined };
}

export async function sessionOf(app: FastifyInstance, options: CallOptions, query = '') {
  const res = await get(app, `/get-session${query}`, options);
  return res.json();
}

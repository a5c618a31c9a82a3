import { makeClient } from '../src/api/client';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials;
}

type Reply = { status?: number; body: unknown } | ((req: Recorded) => { status?: number; body: unknown });

/** A fetch that records every request and answers from a route table ("METHOD /path" → reply). */
export function fakeApi(routes: Record<string, Reply> = {}) {
  const requests: Recorded[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const rec: Recorded = {
      method: request.method,
      path: url.pathname.replace(/^\/api\/auth/, ''),
      query: Object.fromEntries(url.searchParams),
      body: text ? JSON.parse(text) : undefined,
      credentials: request.credentials,
    };
    requests.push(rec);
    const route = routes[`${rec.method} ${rec.path}`];
    const reply = typeof route === 'function' ? route(rec) : (route ?? { status: 200, body: {} });
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  const client = makeClient({ baseUrl: 'http://console.test/api/auth', fetch: fetch as typeof globalThis.fetch });
  return { client, requests, last: () => requests[requests.length - 1] };
}

export const aUser = (over: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@example.com',
  emailVerified: true,
  name: 'Ada',
  image: null,
  role: 'user',
  banned: false,
  banReason: null,
  banExpires: null,
  language: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

export const aSession = (over: Record<string, unknown> = {}) => ({
  id: 's1',
  token: 'tok1',
  userId: 'u1',
  expiresAt: '2026-02-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ipAddress: null,
  userAgent: null,
  impersonatedBy: null,
  activeOrganizationId: null,
  ...over,
});

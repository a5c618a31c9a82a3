import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../setup/app';
import { type CookieJar, get, post } from '../../setup/fixtures';

export const SERVICE_KEY = 'static-service-key-0123456789-abcdefghijklmnop';

/** A server call: no Origin, the key header (the static service credential unless another key is given). */
export const server = (key = SERVICE_KEY) => ({ origin: null, headers: { 'x-api-key': key } });

export const createKey = async (t: TestApp, body: object, as: { jar: CookieJar } | ReturnType<typeof server>) => {
  const res = await post(t.app, '/api-key/create', body, as);
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; key: string; [field: string]: unknown };
};

/** POST /api-key/verify with the static service credential. */
export const verify = (t: TestApp, key: string, permissions?: object) =>
  post(t.app, '/api-key/verify', { key, ...(permissions ? { permissions } : {}) }, server());

/** A route that needs a session (organization list): answers 200 for the key's owner. */
export const asKey = (t: TestApp, key: string) => get(t.app, '/organization/list', { headers: { 'x-api-key': key } });

/** The stored row (what a call must or must not have changed). */
export interface KeyRow {
  name: string | null;
  key_hash: string;
  remaining: number | null;
  request_count: number;
  last_request: Date | null;
}

export async function findKeyRow(t: TestApp, id: string): Promise<KeyRow | null> {
  const rows = await t.ctx.sql.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function keyRow(t: TestApp, id: string): Promise<KeyRow> {
  const row = await findKeyRow(t, id);
  if (!row) throw new Error(`no api_keys row ${id}`);
  return row;
}

export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string) {
  expect([res.statusCode, res.json().code]).toEqual([status, code]);
  if (message) expect(res.json().message).toBe(message);
}

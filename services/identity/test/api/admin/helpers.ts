import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../setup/app';
import { type CookieJar, get, post, type SignedUp, signUp, uniqueEmail } from '../../setup/fixtures';

/** A signed-up user made admin by the operator path (the same service the CLI uses). */
export async function signUpAdmin(t: TestApp, role = 'admin'): Promise<SignedUp> {
  const u = await signUp(t.app, { email: uniqueEmail('admin') });
  await t.ctx.features.admin!.users.setRole(null, u.userId, role);
  return u;
}

export const adminPost = (t: TestApp, path: string, body: unknown, jar: CookieJar) =>
  post(t.app, `/admin/${path}`, body, { jar });

export const adminGet = (t: TestApp, path: string, jar: CookieJar) => get(t.app, `/admin/${path}`, { jar });

/** Reads a user straight from PostgreSQL (what an admin call must or must not have changed). */
export async function userRow(t: TestApp, id: string) {
  const rows = await t.ctx.sql.query(
    'SELECT role, banned, ban_reason, ban_expires, email_verified, name FROM users WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string) {
  expect([res.statusCode, res.json().code]).toEqual([status, code]);
  if (message) expect(res.json().message).toBe(message);
}

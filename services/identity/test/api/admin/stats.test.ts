import { startTestApp, type TestApp } from '../../setup/app';
import { get, type SignedUp, signUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { signUpAdmin } from './helpers';

/**
 * admin/stats: the console dashboard's figures, on a database of its own so that the counts are exact: users, new in
 * the last 7 days, active sessions, bans in force, organizations, and sign-ups per day.
 */
const db = migratedScratchDatabase('stats');
let t: TestApp;
let admin: SignedUp;
let plain: SignedUp;
beforeAll(async () => {
  t = await startTestApp({}, { DATABASE_URL: db.url() });
  admin = await signUpAdmin(t);
  plain = await signUp(t.app, { email: 'plain@example.test' });
});
afterAll(() => t.close());

const sql = (text: string, params: unknown[] = []) => t.ctx.sql.query(text, params);
const stats = (query = '', who = admin) => get(t.app, `/admin/stats${query}`, { jar: who.jar });

const DAY = 86_400_000;

describe('admin/stats', () => {
  it('counts users, new users, active sessions, bans in force and organizations, and sign-ups per day', async () => {
    const now = t.ctx.clock.now();
    // Five more users: two signed up 10 days ago, one banned for good, one whose ban has lapsed.
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await signUp(t.app, { email: `stats-${i}@example.test` })).userId);
    await sql(`UPDATE users SET created_at = $2 WHERE id = ANY($1)`, [ids.slice(0, 2), new Date(now - 10 * DAY)]);
    await sql(`UPDATE users SET banned = true WHERE id = $1`, [ids[2]]);
    await sql(`UPDATE users SET banned = true, ban_expires = $2 WHERE id = $1`, [ids[3], new Date(now - DAY)]);
    // One session expired (not active); every other user has one live session from signing up.
    await sql(`UPDATE sessions SET expires_at = $2 WHERE user_id = $1`, [ids[4], new Date(now - 1000)]);
    await sql(
      `INSERT INTO organizations (id, name, slug, created_at) VALUES (gen_random_uuid(), 'Acme', 'acme', now())`,
    );

    const res = await stats('?days=14');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The admin, the plain user and five more; every user's sign-up session but the expired one.
    expect(body).toMatchObject({ users: 7, newUsers7d: 5, activeSessions: 6, bannedUsers: 1, organizations: 1 });
    expect(body.signUpsPerDay).toHaveLength(14);
    const total = body.signUpsPerDay.reduce((n: number, d: { count: number }) => n + d.count, 0);
    expect(total).toBe(7);
    const tenDaysAgo = new Date(now - 10 * DAY).toISOString().slice(0, 10);
    expect(body.signUpsPerDay.find((d: { day: string }) => d.day === tenDaysAgo)?.count).toBe(2);
    expect(body.signUpsPerDay.at(-1).day).toBe(new Date(now).toISOString().slice(0, 10));
  });

  it('refuses a user who may not list users, and a bad day count', async () => {
    const refused = await stats('', plain);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'NOT_ALLOWED_TO_LIST_USERS']);
    for (const days of ['0', '400', 'x']) expect([(await stats(`?days=${days}`)).statusCode]).toEqual([400]);
  });
});

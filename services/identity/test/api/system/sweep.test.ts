import { startTestApp, type TestApp } from '../../setup/app';
import { post, signUp } from '../../setup/fixtures';

/** The periodic sweep (main.ts) removes every kind of expired row nobody presents again. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const tokensOf = (userId: string) =>
  t.ctx.sql.query<{ identifier: string }>('SELECT identifier FROM verifications WHERE value = $1', [userId]);

it('deletes expired reset tokens and expired sessions, and leaves live ones', async () => {
  // Rows made in the past, so they are expired at the real time other test files (sharing this database) use:
  // the sweep then removes only what truly expired.
  const back = t.config.session.absoluteLifetimeSec + 3600;
  t.clock.advance(-back);
  const old = await signUp(t.app);
  expect((await post(t.app, '/request-password-reset', { email: old.email })).statusCode).toBe(200);
  await t.ctx.background.drain(); // the token is made after the answer: still in the past
  t.clock.advance(back);
  const live = await signUp(t.app);
  expect((await post(t.app, '/request-password-reset', { email: live.email })).statusCode).toBe(200);
  await t.ctx.background.drain();
  expect(await tokensOf(old.userId)).toHaveLength(1);

  const removed = await t.ctx.sweepExpired();

  expect(removed.verifications).toBeGreaterThanOrEqual(1);
  expect(removed.sessions).toBeGreaterThanOrEqual(1);
  expect(await tokensOf(old.userId)).toEqual([]);
  expect((await tokensOf(live.userId)).map((r) => r.identifier)).toEqual([expect.stringMatching(/^reset-password:/)]);
  const sessions = await t.ctx.sql.query('SELECT 1 FROM sessions WHERE user_id = ANY($1)', [[old.userId, live.userId]]);
  expect(sessions).toHaveLength(1);
});

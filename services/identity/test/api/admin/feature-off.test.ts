import { startTestApp, type TestApp } from '../../setup/app';
import { get, signIn, signUp } from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ features: { organization: true, admin: false } });
});
afterAll(() => t.close());

describe('admin feature off', () => {
  it('registers no admin route; sign-in works', async () => {
    expect(t.ctx.features.admin).toBeNull();
    const u = await signUp(t.app);
    expect((await get(t.app, '/admin/list-users', { jar: u.jar })).statusCode).toBe(404);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });

  it("a ban in force still refuses sign-in (the ban rule is the sign-in seam's, not the admin feature's)", async () => {
    const u = await signUp(t.app);
    const until = new Date(t.clock.now() + 3600_000);
    await t.ctx.sql.query('UPDATE users SET banned = true, ban_expires = $2 WHERE id = $1', [u.userId, until]);
    const refused = await signIn(t.app, u.email);
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json().code).toBe('BANNED_USER');
    t.clock.advance(3601); // lapsed: no ban, though nothing clears the row without the admin feature
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });
});

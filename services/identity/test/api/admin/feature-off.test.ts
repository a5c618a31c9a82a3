import { startTestApp, type TestApp } from '../../setup/app';
import { get, signIn, signUp } from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ features: { organization: true, admin: false } });
});
afterAll(() => t.close());

describe('admin feature off', () => {
  it('registers no admin route and installs no hook', async () => {
    expect(t.ctx.features.admin).toBeNull();
    expect(t.ctx.features.session.sessions.hooks.beforeCreate).toHaveLength(0);
    const u = await signUp(t.app);
    expect((await get(t.app, '/admin/list-users', { jar: u.jar })).statusCode).toBe(404);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });
});

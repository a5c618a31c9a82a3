import { startTestApp, type TestApp } from '../../setup/app';
import { runCli } from '../../setup/cli-process';
import { PASSWORD, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminGet, userRow } from './helpers';

const cli = runCli;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('operations CLI (node dist/cli.js)', () => {
  it('create-admin makes an admin who can sign in and use admin routes', async () => {
    const email = uniqueEmail('first-admin');
    const res = await cli('create-admin', '--email', email, '--password', PASSWORD, '--name', 'First Admin');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`created `);
    expect(res.stdout).toContain(email);
    const { jar, res: signedIn } = await signIn(t.app, email);
    expect(signedIn.json().user.role).toBe('admin');
    expect((await adminGet(t, 'list-users', jar)).statusCode).toBe(200);
    const again = await cli('create-admin', '--email', email, '--password', PASSWORD, '--name', 'X');
    expect([again.code, again.stderr.trim()]).toEqual([2, 'USER_ALREADY_EXISTS: User already exists']);
  });

  it('set-role, list-users, ban and unban by email', async () => {
    const u = await signUp(t.app, { name: 'Cli Person' });
    expect((await cli('set-role', '--email', u.email, '--role', 'admin')).stdout).toMatch(/updated .* admin/);
    expect((await userRow(t, u.userId)).role).toBe('admin');
    const listed = await cli('list-users', '--search', u.email.split('@')[0]);
    expect(listed.stdout).toContain(u.email);
    const banned = await cli('ban', '--email', u.email, '--reason', 'abuse', '--expires-in-sec', '3600');
    expect(banned.code).toBe(0);
    expect(await userRow(t, u.userId)).toMatchObject({ banned: true, ban_reason: 'abuse' });
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(403);
    expect((await cli('unban', '--email', u.email)).code).toBe(0);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await cli('ban', '--email', 'nobody@example.com')).stderr).toContain('no user with email');
    expect((await cli('set-role', '--email')).code).toBe(2);
    expect((await cli('ban', '--email', 'x@y.z', '--expires-in-sec', 'soon')).code).toBe(2);
    const usage = await cli('help');
    expect(usage.stdout).toContain('create-admin --email E --password P --name N');
  });
});

import { startTestApp, type TestApp } from '../../setup/app';
import { runCli, runCliOnTerminal, runCliWith, runCliWithInput } from '../../setup/cli-process';
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

  it('create-admin reads the password from standard input: --password-stdin, or no --password on a pipe', async () => {
    const piped = uniqueEmail('stdin-admin');
    const res = await runCliWithInput(
      `${PASSWORD}\n`,
      'create-admin',
      '--email',
      piped,
      '--name',
      'P',
      '--password-stdin',
    );
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout).toContain(`created `);
    expect((await signIn(t.app, piped)).res.json().user.role).toBe('admin');
    // No --password at all and standard input not a terminal: the same, and the last newline is not part of it.
    const implicit = uniqueEmail('stdin-admin');
    const second = await runCliWithInput(`${PASSWORD}\r\n`, 'create-admin', '--email', implicit, '--name', 'Q');
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect((await signIn(t.app, implicit, PASSWORD)).res.statusCode).toBe(200);
  });

  it('create-admin refuses an empty or weak password from standard input, or two passwords, and creates no one', async () => {
    const email = uniqueEmail('stdin-refused');
    const refusals = await Promise.all([
      runCliWithInput('', 'create-admin', '--email', email, '--name', 'R', '--password-stdin'),
      runCliWithInput('\n', 'create-admin', '--email', email, '--name', 'R'),
      runCliWithInput('short\n', 'create-admin', '--email', email, '--name', 'R'),
      runCliWithInput(
        `${PASSWORD}\n`,
        'create-admin',
        '--email',
        email,
        '--name',
        'R',
        '--password-stdin',
        '--password',
        PASSWORD,
      ),
    ]);
    expect(refusals.map((r) => [r.code, r.stderr.trim()])).toEqual([
      [2, 'create-admin: no password on standard input'],
      [2, 'create-admin: no password on standard input'],
      [2, 'PASSWORD_TOO_SHORT: Password too short'],
      [2, 'create-admin: give --password or --password-stdin, not both'],
    ]);
    expect((await cli('list-users', '--search', email)).stdout).toContain('0 shown, 0 in total');
  });

  it('create-admin on a terminal asks for the password twice without showing it', async () => {
    const email = uniqueEmail('tty-admin');
    const typed = 'a password typed at the prompt';
    const { code, output } = await runCliOnTerminal(
      ['create-admin', '--email', email, '--name', 'T'],
      [
        [/Password: $/, typed],
        [/Password again: $/, typed],
      ],
    );
    expect(output).not.toContain(typed);
    expect(output).toContain(`created `);
    expect(code).toBe(0);
    expect((await signIn(t.app, email, typed)).res.statusCode).toBe(200);
    const mismatch = await runCliOnTerminal(
      ['create-admin', '--email', uniqueEmail('tty-admin'), '--name', 'T'],
      [
        [/Password: $/, typed],
        [/Password again: $/, `${typed}!`],
      ],
    );
    expect([mismatch.code, mismatch.output]).toEqual([
      2,
      expect.stringContaining('create-admin: the passwords do not match'),
    ]);
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

  it('without REDIS_URL, warns only for the commands whose change running instances learn through Redis', async () => {
    const noRedis = { REDIS_URL: undefined, LOG_LEVEL: 'info' };
    const u = await signUp(t.app, { name: 'No Redis' });
    const quiet = await Promise.all([
      runCliWith(noRedis, 'list-users', '--search', u.email),
      runCliWith(noRedis, 'migrate:status'),
      runCliWith(noRedis, 'check'),
      runCliWith(noRedis, 'words:prune'),
    ]);
    // `check` exits 3 when the run's shared database holds a partial state another test file made on purpose
    // (a ban written straight into the users table, with the sessions left): both are a completed command here.
    const [listed, status, checked, pruned] = quiet;
    expect([listed.code, status.code, pruned.code]).toEqual([0, 0, 0]);
    expect([0, 3]).toContain(checked.code);
    expect(checked.stdout).toMatch(/partial states? found/);
    for (const run of quiet) expect(run.stderr).not.toContain('REDIS_URL');
    const changed = await runCliWith(noRedis, 'set-role', '--email', u.email, '--role', 'user');
    expect(changed.code).toBe(0);
    const warnings = changed.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.msg.includes('REDIS_URL'));
    expect(warnings).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^REDIS_URL is not set: running instances/) }),
    ]);
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await cli('ban', '--email', 'nobody@example.com')).stderr).toContain('no user with email');
    expect((await cli('set-role', '--email')).code).toBe(2);
    expect((await cli('ban', '--email', 'x@y.z', '--expires-in-sec', 'soon')).code).toBe(2);
    const usage = await cli('help');
    expect(usage.stdout).toContain('create-admin --email E --name N [--password-stdin | --password P]');
  });
});

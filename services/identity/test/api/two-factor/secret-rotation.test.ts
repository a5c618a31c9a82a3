import { PassThrough } from 'node:stream';
import { startTestApp, TEST_SECRET, type TestApp } from '../../setup/app';
import { post } from '../../setup/fixtures';
import { codeAt, enrolledUser, pendingSignIn } from './helpers';

/**
 * AUTH_SECRET rotation (docs/security.md): a TOTP secret sealed under the previous secret, and the backup codes
 * keyed by it, still work while that secret is listed in AUTH_SECRET_PREVIOUS. Without it (dropped before
 * `secrets:reseal` ran, test/api/security/reseal.test.ts) the secret does not open: the sign-in answers the
 * catalogue's STORED_SECRET_UNREADABLE, never a bare 500, and the log line names the command.
 */
const NEXT_SECRET = 'next-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
let before: TestApp;
let rotated: TestApp;
let forgotten: TestApp;
let forgottenLog = '';
beforeAll(async () => {
  before = await startTestApp();
  rotated = await startTestApp({}, { AUTH_SECRET: NEXT_SECRET, AUTH_SECRET_PREVIOUS: TEST_SECRET });
  const sink = new PassThrough();
  sink.on('data', (chunk) => (forgottenLog += chunk));
  forgotten = await startTestApp({}, { AUTH_SECRET: NEXT_SECRET, LOG_LEVEL: 'error' }, sink);
});
afterAll(async () => {
  await before?.close();
  await rotated?.close();
  await forgotten?.close();
});

/** Moves `t`'s clock past `from`'s, so a code shown now was not used there. */
const catchUp = (t: TestApp, from: TestApp) => t.clock.advance((from.clock.now() - t.clock.now()) / 1000 + 60);

describe('second factor across a secret rotation', () => {
  it('codes made under the previous secret still sign in while it is listed', async () => {
    const u = await enrolledUser(before);
    catchUp(rotated, before);
    const totp = await pendingSignIn(rotated, u.email);
    const viaTotp = await post(rotated.app, '/two-factor/verify-totp', { code: await codeAt(rotated, u.secret) }, totp);
    expect(viaTotp.statusCode).toBe(200);
    const backup = await pendingSignIn(rotated, u.email);
    const viaBackup = await post(rotated.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, backup);
    expect(viaBackup.statusCode).toBe(200);
  });

  it('backup codes regenerated after the rotation work too (keyed by the secret, not by AUTH_SECRET)', async () => {
    const u = await enrolledUser(before);
    catchUp(rotated, before);
    const { jar } = await pendingSignIn(rotated, u.email);
    await post(rotated.app, '/two-factor/verify-totp', { code: await codeAt(rotated, u.secret) }, { jar });
    const fresh = await post(rotated.app, '/two-factor/generate-backup-codes', { password: u.password }, { jar });
    expect(fresh.statusCode).toBe(200);
    const backup = await pendingSignIn(rotated, u.email);
    const res = await post(
      rotated.app,
      '/two-factor/verify-backup-code',
      { code: fresh.json().backupCodes[0] },
      backup,
    );
    expect(res.statusCode).toBe(200);
  });

  it('without the previous secret: STORED_SECRET_UNREADABLE (503) for either code, logged with the command', async () => {
    const u = await enrolledUser(before);
    catchUp(forgotten, before);
    for (const [path, code] of [
      ['/two-factor/verify-totp', await codeAt(forgotten, u.secret)],
      ['/two-factor/verify-backup-code', u.backupCodes[0]],
    ]) {
      const { jar } = await pendingSignIn(forgotten, u.email);
      const res = await post(forgotten.app, path, { code }, { jar });
      expect([path, res.statusCode, res.json()]).toEqual([
        path,
        503,
        { code: 'STORED_SECRET_UNREADABLE', message: 'A stored secret cannot be read with the configured secrets' },
      ]);
    }
    // a wrong code was not counted against the user: the secret, not the code, was the problem
    const rows = await forgotten.ctx.sql.query('SELECT failed_count FROM two_factors WHERE user_id = $1', [u.userId]);
    expect(rows[0].failed_count).toBe(0);
    await new Promise((r) => setImmediate(r));
    const lines = forgottenLog
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const logged = lines.filter((l) => String(l.msg).includes(`the two-factor secret of user ${u.userId}`));
    expect(logged).toHaveLength(2);
    expect(logged[0].msg).toContain('npm run cli -- secrets:reseal');
    expect(logged[0].msg).toContain('AUTH_SECRET_PREVIOUS');
  });
});

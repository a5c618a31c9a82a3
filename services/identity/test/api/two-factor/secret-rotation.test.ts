import { startTestApp, TEST_SECRET, type TestApp } from '../../setup/app';
import { post } from '../../setup/fixtures';
import { codeAt, enrolledUser, pendingSignIn } from './helpers';

/**
 * AUTH_SECRET rotation (docs/security.md): a TOTP secret sealed and backup codes hashed under the previous secret
 * still work while it is listed in AUTH_SECRET_PREVIOUS; without it they do not open.
 */
const NEXT_SECRET = 'next-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
let before: TestApp;
let rotated: TestApp;
let forgotten: TestApp;
beforeAll(async () => {
  before = await startTestApp();
  rotated = await startTestApp({}, { AUTH_SECRET: NEXT_SECRET, AUTH_SECRET_PREVIOUS: TEST_SECRET });
  forgotten = await startTestApp({}, { AUTH_SECRET: NEXT_SECRET });
});
afterAll(async () => {
  await before?.close();
  await rotated?.close();
  await forgotten?.close();
});

describe('second factor across a secret rotation', () => {
  it('codes made under the previous secret still sign in while it is listed', async () => {
    const u = await enrolledUser(before);
    rotated.clock.advance((before.clock.now() - rotated.clock.now()) / 1000 + 60);
    const totp = await pendingSignIn(rotated, u.email);
    const viaTotp = await post(rotated.app, '/two-factor/verify-totp', { code: await codeAt(rotated, u.secret) }, totp);
    expect(viaTotp.statusCode).toBe(200);
    const backup = await pendingSignIn(rotated, u.email);
    const viaBackup = await post(rotated.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, backup);
    expect(viaBackup.statusCode).toBe(200);
  });

  it('a backup code made under a secret no longer listed does not match', async () => {
    const u = await enrolledUser(before);
    const { jar } = await pendingSignIn(forgotten, u.email);
    const res = await post(forgotten.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar });
    expect([res.statusCode, res.json().code]).toEqual([401, 'INVALID_BACKUP_CODE']);
  });
});

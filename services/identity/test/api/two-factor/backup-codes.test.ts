import { createHmac } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { type CookieJar, get, PASSWORD, post, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { count, enrolledUser, eventsOf, pendingSignIn, sessionsOf, TWO_FACTOR_COOKIE } from './helpers';

/** Backup codes (docs/two-factor.md): a set of ten, stored hashed, each usable once, regenerated with the password. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const remaining = async (jar: CookieJar) =>
  (await get(t.app, '/two-factor/status', { jar })).json().backupCodesRemaining;

describe('POST /two-factor/verify-backup-code at sign-in', () => {
  it('a backup code completes the sign-in once; the same code never again', async () => {
    const u = await enrolledUser(t);
    const [code] = u.backupCodes;
    const first = await pendingSignIn(t, u.email);
    const res = await post(t.app, '/two-factor/verify-backup-code', { code }, { jar: first.jar });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: u.userId, twoFactorEnabled: true });
    expect(first.jar.get(TOKEN_COOKIE)!.startsWith(`${res.json().token}.`)).toBe(true);
    expect(first.jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
    expect(await remaining(first.jar)).toBe(9);
    expect((await eventsOf(t, u.userId, 'user.signed_in')).at(-1)!.details).toMatchObject({
      secondFactor: 'backup-code',
    });
    const second = await pendingSignIn(t, u.email);
    const reused = await post(t.app, '/two-factor/verify-backup-code', { code }, { jar: second.jar });
    expect([reused.statusCode, reused.json()]).toEqual([
      401,
      { code: 'INVALID_BACKUP_CODE', message: 'Invalid backup code' },
    ]);
  });

  it('codes are drawn from an alphabet without look-alikes (no l, I, 1, O, 0) and shown in one case', async () => {
    const u = await enrolledUser(t);
    const regenerated = await post(t.app, '/two-factor/generate-backup-codes', { password: PASSWORD }, { jar: u.jar });
    const codes: string[] = [...u.backupCodes, ...regenerated.json().backupCodes];
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    // Every letter and digit of the alphabet turns up across a few sets, and nothing else does.
    const more = await Promise.all(
      [1, 2, 3].map(() => post(t.app, '/two-factor/generate-backup-codes', { password: PASSWORD }, { jar: u.jar })),
    );
    const seen = new Set(
      [...codes, ...more.flatMap((r) => r.json().backupCodes as string[])].join('').replace(/-/g, ''),
    );
    expect([...seen].sort().join('')).toBe('23456789abcdefghjkmnpqrstuvwxyz');
  });

  it('typed in any case, without the dash or with spaces it is the same code', async () => {
    const u = await enrolledUser(t);
    for (const [i, typed] of [
      [1, u.backupCodes[1].toUpperCase()],
      [2, ` ${u.backupCodes[2].replace('-', '')} `],
      [
        3,
        u.backupCodes[3].replace(/^(.)(.)/, (_, a: string, b: string) => `${a.toUpperCase()}${b}`).replace('-', ' - '),
      ],
    ] as const) {
      const { jar } = await pendingSignIn(t, u.email);
      const res = await post(t.app, '/two-factor/verify-backup-code', { code: typed }, { jar });
      expect([i, typed, res.statusCode]).toEqual([i, typed, 200]);
    }
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 7', [u.userId])).toBe(1);
  });

  it('a code issued before the new alphabet (mixed case, stored by its exact case) still works as it was given', async () => {
    const u = await enrolledUser(t);
    // The stored form of the earlier codes: an HMAC of the code as issued (case kept), keyed by the TOTP secret.
    const key = createHmac('sha256', u.secret).update('identity/backup-codes').digest();
    const stored = (code: string) => createHmac('sha256', key).update(`${u.userId}:${code}`).digest('base64url');
    const earlier = 'Ab1O0lIxYz';
    await t.ctx.sql.query('UPDATE two_factors SET backup_codes = array_append(backup_codes, $2) WHERE user_id = $1', [
      u.userId,
      stored(earlier),
    ]);
    const { jar } = await pendingSignIn(t, u.email);
    // Its hash allows only the exact case: another case is a wrong code.
    const otherCase = await post(t.app, '/two-factor/verify-backup-code', { code: earlier.toLowerCase() }, { jar });
    expect([otherCase.statusCode, otherCase.json().code]).toEqual([401, 'INVALID_BACKUP_CODE']);
    const res = await post(t.app, '/two-factor/verify-backup-code', { code: 'Ab1O0-lIxYz' }, { jar });
    expect(res.statusCode).toBe(200);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 10', [u.userId])).toBe(1);
  });

  it('the same code sent concurrently from several pending sign-ins: exactly one session', async () => {
    const u = await enrolledUser(t);
    const code = u.backupCodes[2];
    const browsers = await Promise.all([1, 2, 3, 4, 5].map(() => pendingSignIn(t, u.email)));
    const before = await sessionsOf(t, u.userId);
    const answers = await Promise.all(
      browsers.map(({ jar }) => post(t.app, '/two-factor/verify-backup-code', { code }, { jar })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
    expect(await sessionsOf(t, u.userId)).toBe(before + 1);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 9', [u.userId])).toBe(1);
  });

  it('a wrong or malformed code is counted like a wrong TOTP code and changes no code', async () => {
    const u = await enrolledUser(t);
    const { jar } = await pendingSignIn(t, u.email);
    for (const code of ['aaaaa-bbbbb', 'short', 'x'.repeat(32)]) {
      const res = await post(t.app, '/two-factor/verify-backup-code', { code }, { jar });
      expect([code, res.statusCode, res.json().code]).toEqual([code, 401, 'INVALID_BACKUP_CODE']);
    }
    const tooLong = await post(t.app, '/two-factor/verify-backup-code', { code: 'x'.repeat(33) }, { jar });
    expect([tooLong.statusCode, tooLong.json().code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 10', [u.userId])).toBe(1);
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 3', [u.userId])).toBe(1);
    const disable = await post(
      t.app,
      '/two-factor/verify-backup-code',
      { code: u.backupCodes[0], disableSession: true },
      { jar },
    );
    expect([disable.statusCode, disable.json().code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('a signed-in user may spend a code (better-auth allows it): it is gone afterwards', async () => {
    const u = await enrolledUser(t);
    const res = await post(t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[3] }, { jar: u.jar });
    expect([res.statusCode, res.json().token]).toEqual([200, u.token]);
    expect(await remaining(u.jar)).toBe(9);
  });
});

describe('POST /two-factor/generate-backup-codes', () => {
  it('a new set with the password: the old codes stop working, audited', async () => {
    const u = await enrolledUser(t);
    const res = await post(t.app, '/two-factor/generate-backup-codes', { password: PASSWORD }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    const { status, backupCodes } = res.json();
    expect(status).toBe(true);
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes.filter((c: string) => u.backupCodes.includes(c))).toEqual([]);
    expect(await eventsOf(t, u.userId, 'user.backup_codes_regenerated')).toHaveLength(1);
    const { jar } = await pendingSignIn(t, u.email);
    const old = await post(t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar });
    expect(old.statusCode).toBe(401);
    expect((await post(t.app, '/two-factor/verify-backup-code', { code: backupCodes[0] }, { jar })).statusCode).toBe(
      200,
    );
  });

  it('refuses a wrong password and a user without a second factor; nothing changes', async () => {
    const u = await enrolledUser(t);
    const before = await t.ctx.sql.query('SELECT backup_codes FROM two_factors WHERE user_id = $1', [u.userId]);
    const wrong = await post(
      t.app,
      '/two-factor/generate-backup-codes',
      { password: 'wrong password' },
      { jar: u.jar },
    );
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'INVALID_PASSWORD']);
    expect(await t.ctx.sql.query('SELECT backup_codes FROM two_factors WHERE user_id = $1', [u.userId])).toEqual(
      before,
    );
    const plain = await signUp(t.app);
    const none = await post(t.app, '/two-factor/generate-backup-codes', { password: PASSWORD }, { jar: plain.jar });
    expect([none.statusCode, none.json()]).toEqual([
      400,
      { code: 'TWO_FACTOR_NOT_ENABLED', message: "Two factor isn't enabled" },
    ]);
  });

  it('honours a configured set size', async () => {
    const small = await startTestApp({ twoFactor: { ...t.config.twoFactor, backupCodeCount: 4 } });
    try {
      const u = await enrolledUser(small);
      expect(u.backupCodes).toHaveLength(4);
    } finally {
      await small.close();
    }
  });
});

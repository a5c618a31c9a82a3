import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, sessionOf, signUp } from '../../setup/fixtures';
import { codeAt, count, enrolledUser, eventsOf, nextStep, secretOf } from './helpers';

/** Enrolling TOTP and backup codes with a session (docs/two-factor.md), as better-auth's two-factor plugin answers. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const rowOf = async (userId: string) =>
  (
    await t.ctx.sql.query<{ secret_sealed: string; verified: boolean; backup_codes: string[] }>(
      'SELECT secret_sealed, verified, backup_codes FROM two_factors WHERE user_id = $1',
      [userId],
    )
  )[0];
const enabledFlag = async (userId: string) =>
  (await t.ctx.sql.query<{ e: boolean }>('SELECT two_factor_enabled AS e FROM users WHERE id = $1', [userId]))[0].e;

describe('POST /two-factor/enable', () => {
  it('answers the otpauth URI and ten backup codes; nothing is on before a first code', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['backupCodes', 'method', 'totpURI']);
    expect(body.method).toBe('totp');
    const uri = new URL(body.totpURI);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toContain(u.email);
    expect(uri.searchParams.get('issuer')).toBe('Identity');
    expect(secretOf(body.totpURI)).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.backupCodes).toHaveLength(10);
    for (const code of body.backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    expect(new Set(body.backupCodes).size).toBe(10);
    // sealed at rest, codes hashed: neither the secret nor a code is stored as it is
    const row = await rowOf(u.userId);
    expect(row.verified).toBe(false);
    expect(row.secret_sealed).not.toContain(secretOf(body.totpURI));
    expect(row.secret_sealed.startsWith('v1.')).toBe(true);
    expect(row.backup_codes).toHaveLength(10);
    for (const code of body.backupCodes) expect(row.backup_codes.join()).not.toContain(code.replace('-', ''));
    expect(await enabledFlag(u.userId)).toBe(false);
    expect((await sessionOf(t.app, { jar: u.jar }, '?disableCookieCache=true')).user.twoFactorEnabled).toBe(false);
  });

  it('refuses a wrong password (INVALID_PASSWORD) and stores nothing', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/two-factor/enable', { password: 'not the password' }, { jar: u.jar });
    expect([res.statusCode, res.json()]).toEqual([400, { code: 'INVALID_PASSWORD', message: 'Invalid password' }]);
    expect(await count(t, 'two_factors WHERE user_id = $1', [u.userId])).toBe(0);
  });

  it('refuses without a session, and bad bodies with a catalogue error; nothing is stored', async () => {
    const u = await signUp(t.app);
    const anonymous = await post(t.app, '/two-factor/enable', { password: PASSWORD });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'UNAUTHORIZED']);
    for (const [body, code] of [
      [{}, 'VALIDATION_ERROR'],
      [{ password: 1 }, 'VALIDATION_ERROR'],
      [{ password: PASSWORD, method: 'otp' }, 'VALIDATION_ERROR'],
      [{ password: PASSWORD, issuer: '' }, 'VALIDATION_ERROR'],
      [{ password: PASSWORD, extra: 1 }, 'FIELD_NOT_ALLOWED'],
    ] as const) {
      const res = await post(t.app, '/two-factor/enable', body, { jar: u.jar });
      expect([JSON.stringify(body), res.statusCode, res.json().code]).toEqual([JSON.stringify(body), 400, code]);
    }
    expect(await count(t, 'two_factors WHERE user_id = $1', [u.userId])).toBe(0);
  });

  it('a custom issuer goes into the URI', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/two-factor/enable', { password: PASSWORD, issuer: 'Acme' }, { jar: u.jar });
    expect(new URL(res.json().totpURI).searchParams.get('issuer')).toBe('Acme');
  });

  it('answers TOTP_ALREADY_ENABLED once a code confirmed it, and keeps the secret', async () => {
    const u = await enrolledUser(t);
    const before = await rowOf(u.userId);
    const res = await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { code: 'TOTP_ALREADY_ENABLED', message: 'TOTP is already enabled' },
    ]);
    expect(await rowOf(u.userId)).toEqual(before);
  });
});

describe('POST /two-factor/verify-totp with a session (finishing the enrolment)', () => {
  it('a right code turns the second factor on: user flag, audit event, session cache refreshed', async () => {
    const u = await signUp(t.app);
    const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar })).json();
    const secret = secretOf(totpURI);
    const res = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secret) }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBe(u.token);
    expect(res.json().user).toMatchObject({ id: u.userId, twoFactorEnabled: true });
    expect(await enabledFlag(u.userId)).toBe(true);
    expect((await rowOf(u.userId)).verified).toBe(true);
    // get-session, from the cookie cache and from the database, sees the change at once
    expect((await sessionOf(t.app, { jar: u.jar })).user.twoFactorEnabled).toBe(true);
    expect((await sessionOf(t.app, { bearer: u.token })).user.twoFactorEnabled).toBe(true);
    const events = await eventsOf(t, u.userId, 'user.two_factor_enabled');
    expect(events).toHaveLength(1);
    expect(events[0].actor_type).toBe('user');
  });

  it('a wrong code answers INVALID_CODE and changes nothing', async () => {
    const u = await signUp(t.app);
    const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar })).json();
    const right = await codeAt(t, secretOf(totpURI));
    const wrong = right === '000000' ? '111111' : '000000';
    for (const code of [wrong, '12345', 'abcdef', await codeAt(t, secretOf(totpURI), 3)]) {
      const res = await post(t.app, '/two-factor/verify-totp', { code }, { jar: u.jar });
      expect([code, res.statusCode, res.json()]).toEqual([
        code,
        401,
        { code: 'INVALID_CODE', message: 'Invalid code' },
      ]);
    }
    expect(await enabledFlag(u.userId)).toBe(false);
    expect((await rowOf(u.userId)).verified).toBe(false);
  });

  it('accepts the codes of the step before and after (clock drift), each once', async () => {
    const u = await signUp(t.app);
    const { totpURI } = (await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar })).json();
    const secret = secretOf(totpURI);
    const previous = await codeAt(t, secret, -1);
    expect((await post(t.app, '/two-factor/verify-totp', { code: previous }, { jar: u.jar })).statusCode).toBe(200);
    const replay = await post(t.app, '/two-factor/verify-totp', { code: previous }, { jar: u.jar });
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'INVALID_CODE']);
    const next = await codeAt(t, secret, 1);
    expect((await post(t.app, '/two-factor/verify-totp', { code: next }, { jar: u.jar })).statusCode).toBe(200);
    // the current step is behind the last one accepted: refused too (a code older than one used never passes)
    const current = await codeAt(t, secret);
    expect((await post(t.app, '/two-factor/verify-totp', { code: current }, { jar: u.jar })).statusCode).toBe(401);
  });

  it('answers TOTP_NOT_ENABLED before enrolling', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/two-factor/verify-totp', { code: '123456' }, { jar: u.jar });
    expect([res.statusCode, res.json().code]).toEqual([400, 'TOTP_NOT_ENABLED']);
  });
});

describe('POST /two-factor/get-totp-uri', () => {
  it('answers the same secret with the password; refuses a wrong one', async () => {
    const u = await enrolledUser(t);
    const res = await post(t.app, '/two-factor/get-totp-uri', { password: PASSWORD }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    expect(secretOf(res.json().totpURI)).toBe(u.secret);
    const wrong = await post(t.app, '/two-factor/get-totp-uri', { password: 'wrong password' }, { jar: u.jar });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'INVALID_PASSWORD']);
    const none = await signUp(t.app);
    const missing = await post(t.app, '/two-factor/get-totp-uri', { password: PASSWORD }, { jar: none.jar });
    expect([missing.statusCode, missing.json().code]).toEqual([400, 'TOTP_NOT_ENABLED']);
  });
});

describe('POST /two-factor/disable', () => {
  it('with the password: everything goes, the flag is off, audited', async () => {
    const u = await enrolledUser(t);
    const res = await post(t.app, '/two-factor/disable', { password: PASSWORD }, { jar: u.jar });
    expect([res.statusCode, res.json()]).toEqual([200, { status: true }]);
    expect(await enabledFlag(u.userId)).toBe(false);
    expect(await count(t, 'two_factors WHERE user_id = $1', [u.userId])).toBe(0);
    expect((await sessionOf(t.app, { jar: u.jar })).user.twoFactorEnabled).toBe(false);
    expect(await eventsOf(t, u.userId, 'user.two_factor_disabled')).toHaveLength(1);
  });

  it('refuses a wrong password and a session past the fresh age; nothing changes', async () => {
    const u = await enrolledUser(t);
    const wrong = await post(t.app, '/two-factor/disable', { password: 'wrong password' }, { jar: u.jar });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'INVALID_PASSWORD']);
    t.clock.advance(t.config.session.freshAgeSec + 1);
    const stale = await post(t.app, '/two-factor/disable', { password: PASSWORD }, { jar: u.jar });
    expect([stale.statusCode, stale.json().code]).toEqual([403, 'SESSION_NOT_FRESH']);
    expect(await enabledFlag(u.userId)).toBe(true);
    expect(await count(t, 'two_factors WHERE user_id = $1', [u.userId])).toBe(1);
  });
});

describe('GET /two-factor/status', () => {
  it('says whether the second factor is on and how many backup codes are left', async () => {
    const u = await signUp(t.app);
    expect((await get(t.app, '/two-factor/status', { jar: u.jar })).json()).toEqual({
      enabled: false,
      totp: false,
      backupCodesRemaining: 0,
      passkeys: 0,
    });
    const e = await enrolledUser(t);
    expect((await get(t.app, '/two-factor/status', { jar: e.jar })).json()).toEqual({
      enabled: true,
      totp: true,
      backupCodesRemaining: 10,
      passkeys: 0,
    });
    nextStep(t);
    expect((await get(t.app, '/two-factor/status')).statusCode).toBe(401);
  });
});

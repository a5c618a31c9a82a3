import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, DATA_COOKIE, get, post, sessionOf, TOKEN_COOKIE } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { enrolledUser, TWO_FACTOR_COOKIE } from '../two-factor/helpers';
import {
  authenticator,
  count,
  eventsOf,
  PASSKEY_COOKIE,
  register,
  signInWithPasskey,
  startSignIn,
  userWithPasskey,
} from './helpers';

/** Signing in with a passkey (docs/two-factor.md "Passkeys"): the session as a password sign-in makes it. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const sessionsOf = (userId: string) => count(t, 'sessions WHERE user_id = $1', [userId]);
const counterOf = async (passkeyId: string) =>
  Number(
    (await t.ctx.sql.query<{ counter: string }>('SELECT counter FROM passkeys WHERE id = $1', [passkeyId]))[0].counter,
  );

describe('discoverable sign-in (no user named)', () => {
  it('makes the session: better-auth’s answer, both session cookies, the signed_in event with the method', async () => {
    const u = await userWithPasskey(t);
    const { options, jar } = await startSignIn(t);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials).toBeUndefined();
    expect(jar.get(PASSKEY_COOKIE)).toBeDefined();
    const before = await sessionsOf(u.userId);
    const res = await post(t.app, '/passkey/verify-authentication', { response: u.device.get(options) }, { jar });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['session', 'user']);
    expect(body.user).toMatchObject({ id: u.userId, email: u.email, passkeyCount: 1 });
    expect(body.session).toMatchObject({ userId: u.userId, token: expect.any(String) });
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    expect(jar.get(DATA_COOKIE)).toBeDefined();
    expect(jar.get(PASSKEY_COOKIE)).toBeUndefined();
    expect((await sessionOf(t.app, { jar })).session.token).toBe(body.session.token);
    expect(await sessionsOf(u.userId)).toBe(before + 1);
    const events = await eventsOf(t, u.userId, 'user.signed_in');
    expect(events.at(-1)).toEqual({
      actor_type: 'user',
      details: { method: 'passkey', passkeyId: u.passkeyId, userVerified: true, sessionId: body.session.id },
    });
    expect(await counterOf(u.passkeyId)).toBe(1);
  });

  it('a user with TOTP on is signed in by the passkey alone: no second-factor step, no pending cookie', async () => {
    const u = await enrolledUser(t);
    const device = authenticator();
    expect((await register(t, u.jar, device)).statusCode).toBe(200);
    const { res, jar } = await signInWithPasskey(t, device);
    expect(res.statusCode).toBe(200);
    expect(res.json().twoFactorRedirect).toBeUndefined();
    expect(res.json().user).toMatchObject({ twoFactorEnabled: true, passkeyCount: 1 });
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeUndefined();
    expect((await sessionOf(t.app, { jar })).user.id).toBe(u.userId);
  });

  it('a signed-in caller’s options name their passkeys, and only theirs verify', async () => {
    const u = await userWithPasskey(t);
    const other = await userWithPasskey(t);
    const jar = u.jar.clone();
    const { options } = await startSignIn(t, jar);
    expect(options.allowCredentials).toEqual([
      { id: u.device.id, type: 'public-key', transports: ['hybrid', 'internal'] },
    ]);
    const res = await post(t.app, '/passkey/verify-authentication', { response: other.device.get(options) }, { jar });
    expectError(res, 401, 'PASSKEY_NOT_FOUND', 'Passkey not found');
  });

  it('an assertion without a user handle, or with an empty one (a credential stored without it), signs in', async () => {
    const u = await userWithPasskey(t);
    for (const userHandle of [null, '']) {
      const { options, jar } = await startSignIn(t);
      const response = u.device.get(options);
      const res = await post(
        t.app,
        '/passkey/verify-authentication',
        { response: { ...response, response: { ...response.response, userHandle } } },
        { jar },
      );
      expect(res.statusCode).toBe(200);
    }
  });

  it('a counterless authenticator (always 0) signs in again and again', async () => {
    const u = await userWithPasskey(t, {}, authenticator({ counterless: true }));
    for (let i = 0; i < 2; i++) expect((await signInWithPasskey(t, u.device)).res.statusCode).toBe(200);
    expect(await counterOf(u.passkeyId)).toBe(0);
  });
});

describe('refusals', () => {
  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another relying party id', { rpId: 'evil.example' }],
    ['another challenge', { challenge: Buffer.from('some other challenge').toString('base64url') }],
    ['a registration instead of a sign-in', { type: 'webauthn.create' }],
    ['no user verification (required by default)', { userVerified: false }],
  ])('%s: AUTHENTICATION_FAILED (400), no session, recorded', async (_, overrides) => {
    const u = await userWithPasskey(t);
    const before = await sessionsOf(u.userId);
    const { res, jar } = await signInWithPasskey(t, u.device, overrides);
    expectError(res, 400, 'AUTHENTICATION_FAILED', 'Authentication failed');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(await sessionsOf(u.userId)).toBe(before);
    const failed = await eventsOf(t, u.userId, 'user.sign_in_failed');
    expect(failed.at(-1)).toEqual({
      actor_type: 'anonymous',
      details: expect.objectContaining({ method: 'passkey', passkeyId: u.passkeyId }),
    });
  });

  it('a signature that does not verify: AUTHENTICATION_FAILED (401)', async () => {
    const u = await userWithPasskey(t);
    const { options, jar } = await startSignIn(t);
    const response = u.device.get(options);
    const signature = Buffer.from(response.response.signature, 'base64url');
    signature[signature.length - 1] ^= 0x01;
    response.response.signature = signature.toString('base64url');
    const res = await post(t.app, '/passkey/verify-authentication', { response }, { jar });
    expectError(res, 401, 'AUTHENTICATION_FAILED');
    const failed = await eventsOf(t, u.userId, 'user.sign_in_failed');
    expect(failed.at(-1)?.details).toMatchObject({ reason: 'signature' });
  });

  it('a counter that does not grow is refused and recorded (a cloned authenticator); the stored one stays', async () => {
    const u = await userWithPasskey(t);
    expect((await signInWithPasskey(t, u.device, { counter: 5 })).res.statusCode).toBe(200);
    const before = await sessionsOf(u.userId);
    for (const counter of [5, 3, 0]) {
      const { res } = await signInWithPasskey(t, u.device, { counter });
      expectError(res, 401, 'AUTHENTICATION_FAILED');
    }
    expect(await sessionsOf(u.userId)).toBe(before);
    expect(await counterOf(u.passkeyId)).toBe(5);
    const failed = await eventsOf(t, u.userId, 'user.sign_in_failed');
    expect(failed.slice(-3).map((e) => e.details)).toEqual(
      [5, 3, 0].map((counter) => ({
        method: 'passkey',
        reason: 'counter',
        passkeyId: u.passkeyId,
        counter,
        expectedAbove: 5,
      })),
    );
    expect((await signInWithPasskey(t, u.device, { counter: 6 })).res.statusCode).toBe(200);
  });

  it('an unknown passkey: PASSKEY_NOT_FOUND (401)', async () => {
    const { res } = await signInWithPasskey(t, authenticator());
    expectError(res, 401, 'PASSKEY_NOT_FOUND');
  });

  it('a challenge is used once: replayed, and two verifications at once, only one signs in', async () => {
    const u = await userWithPasskey(t);
    const { options, jar } = await startSignIn(t);
    const response = u.device.get(options);
    const replay = jar.clone();
    expect((await post(t.app, '/passkey/verify-authentication', { response }, { jar })).statusCode).toBe(200);
    expectError(
      await post(t.app, '/passkey/verify-authentication', { response }, { jar: replay }),
      400,
      'CHALLENGE_NOT_FOUND',
    );

    const race = await startSignIn(t);
    const before = await sessionsOf(u.userId);
    const raced = race.jar.clone();
    const second = u.device.get(race.options);
    const answers = await Promise.all([
      post(t.app, '/passkey/verify-authentication', { response: second }, { jar: race.jar }),
      post(t.app, '/passkey/verify-authentication', { response: second }, { jar: raced }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json().code).toBe('CHALLENGE_NOT_FOUND');
    expect(await sessionsOf(u.userId)).toBe(before + 1);
  });

  it('no challenge cookie, a forged one, an expired one, or a registration’s: CHALLENGE_NOT_FOUND', async () => {
    const u = await userWithPasskey(t);
    const { options, jar } = await startSignIn(t);
    const response = u.device.get(options);
    expectError(await post(t.app, '/passkey/verify-authentication', { response }), 400, 'CHALLENGE_NOT_FOUND');
    const forged = new CookieJar();
    forged.cookies.set(PASSKEY_COOKIE, 'made-up.signature');
    expectError(
      await post(t.app, '/passkey/verify-authentication', { response }, { jar: forged }),
      400,
      'CHALLENGE_NOT_FOUND',
    );
    t.clock.advance(t.config.passkey.challengeTtlSec + 1);
    try {
      expectError(
        await post(t.app, '/passkey/verify-authentication', { response }, { jar }),
        400,
        'CHALLENGE_NOT_FOUND',
      );
    } finally {
      t.clock.advance(-(t.config.passkey.challengeTtlSec + 1));
    }
    const registration = (await get(t.app, '/passkey/generate-register-options', { jar: u.jar })).json();
    const signedIn = u.jar.clone();
    const res = await post(
      t.app,
      '/passkey/verify-authentication',
      { response: u.device.get({ challenge: registration.challenge, rpId: 'localhost' }) },
      { jar: signedIn },
    );
    expectError(res, 400, 'CHALLENGE_NOT_FOUND');
  });

  it('a malformed assertion is a validation error, never a 500', async () => {
    const { jar } = await startSignIn(t);
    for (const response of [
      {},
      { id: 'x' },
      { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: '!!' } },
    ]) {
      const res = await post(t.app, '/passkey/verify-authentication', { response }, { jar: jar.clone() });
      expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const u = await userWithPasskey(t);
    const started = await startSignIn(t);
    const response = u.device.get(started.options);
    response.response.clientDataJSON = Buffer.from('not json').toString('base64url');
    expectError(
      await post(t.app, '/passkey/verify-authentication', { response }, { jar: started.jar }),
      400,
      'AUTHENTICATION_FAILED',
    );
  });

  it('a banned user is refused as at any sign-in (BANNED_USER), with no session', async () => {
    const u = await userWithPasskey(t);
    const admin = await signUpAdmin(t);
    expect((await adminPost(t, 'ban-user', { userId: u.userId }, admin.jar)).statusCode).toBe(200);
    const { res, jar } = await signInWithPasskey(t, u.device);
    expectError(res, 403, 'BANNED_USER');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(await sessionsOf(u.userId)).toBe(0);
  });
});

describe('PASSKEY_USER_VERIFICATION=preferred', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await startTestApp({}, { PASSKEY_USER_VERIFICATION: 'preferred' });
  });
  afterAll(() => p?.close());

  it('accepts a passkey without user verification, except for a user whose second factor is on', async () => {
    const device = authenticator({ userVerification: false });
    await userWithPasskey(p, {}, device);
    const options = (await startSignIn(p)).options;
    expect(options.userVerification).toBe('preferred');
    expect((await signInWithPasskey(p, device)).res.statusCode).toBe(200);

    const e = await enrolledUser(p);
    const other = authenticator({ userVerification: false });
    expect((await register(p, e.jar, other)).statusCode).toBe(200);
    expectError((await signInWithPasskey(p, other)).res, 400, 'AUTHENTICATION_FAILED');
    expect((await signInWithPasskey(p, other, { userVerified: true })).res.statusCode).toBe(200);
  });
});

describe('rate limits (on by default, per client address)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    const prefix = `${process.env.TEST_REDIS_PREFIX}pk-${randomBytes(4).toString('hex')}:`;
    limited = await startTestApp({}, { RATE_LIMIT_ENABLED: 'true', REDIS_PREFIX: prefix });
  });
  afterAll(() => limited?.close());

  it('verify-authentication allows 10 a minute and the sign-in options 30, then RATE_LIMITED (429)', async () => {
    const { jar } = await startSignIn(limited);
    const response = authenticator().get({ challenge: 'AAAA', rpId: 'localhost' });
    const verifies = [];
    for (let i = 0; i < 11; i++)
      verifies.push(await post(limited.app, '/passkey/verify-authentication', { response }, { jar: jar.clone() }));
    expect(verifies.slice(0, 10).every((r) => r.statusCode !== 429)).toBe(true);
    expectError(verifies[10], 429, 'RATE_LIMITED');
    const options = [];
    for (let i = 0; i < 30; i++) options.push(await get(limited.app, '/passkey/generate-authenticate-options'));
    expect(options.map((r) => r.statusCode)).toEqual([...Array(29).fill(200), 429]);
  });
});

describe('the sweep', () => {
  it('deletes expired challenges and leaves live ones', async () => {
    t.clock.advance(-(t.config.passkey.challengeTtlSec + 60));
    const old = await startSignIn(t);
    t.clock.advance(t.config.passkey.challengeTtlSec + 60);
    const live = await startSignIn(t);
    const removed = await t.ctx.sweepExpired();
    expect(removed.passkeyChallenges).toBeGreaterThanOrEqual(1);
    const left = await t.ctx.sql.query<{ challenge: string }>(
      'SELECT challenge FROM passkey_challenges WHERE challenge = ANY($1)',
      [[old.options.challenge, live.options.challenge]],
    );
    expect(left).toEqual([{ challenge: live.options.challenge }]);
  });
});

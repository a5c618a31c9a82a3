import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, sessionOf, signUp } from '../../setup/fixtures';
import { adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { createKey, SERVICE_KEY, server } from '../api-key/helpers';
import { authenticator, eventsOf, PASSKEY_COOKIE, passkeysOf, register, startSignIn, userWithPasskey } from './helpers';

/** Registering passkeys and managing them (docs/two-factor.md "Passkeys"), as better-auth's passkey plugin answers. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { SERVICE_API_KEY: SERVICE_KEY });
});
afterAll(() => t?.close());

const countOf = async (userId: string) =>
  (await t.ctx.sql.query<{ passkey_count: number }>('SELECT passkey_count FROM users WHERE id = $1', [userId]))[0]
    .passkey_count;

describe('registration', () => {
  it('answers the creation options for the relying party, with the challenge cookie (signed, HttpOnly, 5 minutes)', async () => {
    const u = await signUp(t.app);
    const res = await get(t.app, '/passkey/generate-register-options?authenticatorAttachment=platform', { jar: u.jar });
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Identity' },
      user: { name: u.email, displayName: u.email },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: {
        authenticatorAttachment: 'platform',
        residentKey: 'preferred',
        userVerification: 'required',
      },
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // a random user handle, never the user's id
    expect(Buffer.from(options.user.id, 'base64url').toString()).not.toContain(u.userId);
    expect(options.pubKeyCredParams).toEqual(expect.arrayContaining([{ alg: -7, type: 'public-key' }]));
    expect(u.jar.get(PASSKEY_COOKIE)).toBeDefined();
    expect(u.jar.attributes.get(PASSKEY_COOKIE)).toMatchObject({ httponly: true, samesite: 'Lax', 'max-age': '300' });
    const stored = await t.ctx.sql.query('SELECT ceremony, user_id FROM passkey_challenges WHERE challenge = $1', [
      options.challenge,
    ]);
    expect(stored).toEqual([{ ceremony: 'registration', user_id: u.userId }]);
  });

  it('adds the passkey: better-auth’s passkey answer, the count on the user, the audit event', async () => {
    const u = await signUp(t.app);
    const device = authenticator({ synced: true });
    const res = await register(t, u.jar, device, { name: '  Work laptop  ' });
    expect(res.statusCode).toBe(200);
    const passkey = res.json();
    expect(passkey).toEqual({
      id: expect.any(String),
      name: 'Work laptop',
      publicKey: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      userId: u.userId,
      credentialID: device.id,
      counter: 0,
      deviceType: 'multiDevice',
      backedUp: true,
      transports: 'hybrid,internal',
      createdAt: expect.any(String),
      aaguid: '00000000-0000-0000-0000-000000000000',
    });
    expect(u.jar.get(PASSKEY_COOKIE)).toBeUndefined(); // the ceremony is over
    expect(await countOf(u.userId)).toBe(1);
    // the caller's cached user says so at once, and the second factor's status too
    expect((await sessionOf(t.app, { jar: u.jar })).user.passkeyCount).toBe(1);
    expect((await get(t.app, '/two-factor/status', { jar: u.jar })).json()).toEqual({
      enabled: false,
      totp: false,
      backupCodesRemaining: 0,
      passkeys: 1,
    });
    const [event] = await eventsOf(t, u.userId, 'user.passkey_added');
    expect(event).toEqual({
      actor_type: 'user',
      details: {
        passkeyId: passkey.id,
        name: 'Work laptop',
        deviceType: 'multiDevice',
        backedUp: true,
        aaguid: '00000000-0000-0000-0000-000000000000',
      },
    });
  });

  it('names a passkey without a name null, and lists the existing ones in excludeCredentials', async () => {
    const u = await userWithPasskey(t);
    const second = authenticator({ transports: ['usb'] });
    const options = (await get(t.app, '/passkey/generate-register-options', { jar: u.jar })).json();
    expect(options.excludeCredentials).toEqual([
      { id: u.device.id, type: 'public-key', transports: ['hybrid', 'internal'] },
    ]);
    const res = await post(t.app, '/passkey/verify-registration', { response: second.create(options) }, { jar: u.jar });
    expect([res.statusCode, res.json().name, res.json().transports]).toEqual([200, null, 'usb']);
    expect(await countOf(u.userId)).toBe(2);
  });

  it('refuses a credential registered already (PREVIOUSLY_REGISTERED), to this user or another', async () => {
    const u = await userWithPasskey(t);
    expectError(await register(t, u.jar, u.device), 400, 'PREVIOUSLY_REGISTERED', 'Previously registered');
    const other = await signUp(t.app);
    expectError(await register(t, other.jar, u.device), 400, 'PREVIOUSLY_REGISTERED');
    expect([await countOf(u.userId), await countOf(other.userId)]).toEqual([1, 0]);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['a trusted origin that cannot use the relying party id', { origin: 'https://app.example.test' }],
    ['another relying party id', { rpId: 'evil.example' }],
    ['another challenge', { challenge: Buffer.from('not the challenge').toString('base64url') }],
    ['a sign-in instead of a registration', { type: 'webauthn.get' }],
    ['no user verification (required by default)', { userVerified: false }],
  ])('refuses %s with FAILED_TO_VERIFY_REGISTRATION and stores nothing', async (_, overrides) => {
    const u = await signUp(t.app);
    const res = await register(t, u.jar, authenticator(), { overrides });
    expectError(res, 400, 'FAILED_TO_VERIFY_REGISTRATION', 'Failed to verify registration');
    expect([await passkeysOf(t, u.userId), await countOf(u.userId)]).toEqual([0, 0]);
    expect(await eventsOf(t, u.userId, 'user.passkey_added')).toEqual([]);
  });

  it('uses a challenge once: a second verify, a lost cookie, a forged one or an expired one is CHALLENGE_NOT_FOUND', async () => {
    const u = await signUp(t.app);
    const device = authenticator();
    const options = (await get(t.app, '/passkey/generate-register-options', { jar: u.jar })).json();
    const cookie = u.jar.get(PASSKEY_COOKIE)!;
    const response = device.create(options);
    const replay = u.jar.clone();
    expect((await post(t.app, '/passkey/verify-registration', { response }, { jar: u.jar })).statusCode).toBe(200);
    expectError(
      await post(t.app, '/passkey/verify-registration', { response }, { jar: replay }),
      400,
      'CHALLENGE_NOT_FOUND',
      'Challenge not found',
    );
    expectError(
      await post(t.app, '/passkey/verify-registration', { response }, { jar: u.jar }),
      400,
      'CHALLENGE_NOT_FOUND',
    );
    const forged = u.jar.clone();
    forged.cookies.set(PASSKEY_COOKIE, `${cookie.slice(0, cookie.lastIndexOf('.'))}.forged`);
    expectError(
      await post(t.app, '/passkey/verify-registration', { response }, { jar: forged }),
      400,
      'CHALLENGE_NOT_FOUND',
    );
    // expired: the stored challenge outlives nothing past its five minutes
    const late = authenticator();
    const lateOptions = (await get(t.app, '/passkey/generate-register-options', { jar: u.jar })).json();
    t.clock.advance(301);
    try {
      const res = await post(
        t.app,
        '/passkey/verify-registration',
        { response: late.create(lateOptions) },
        { jar: u.jar },
      );
      expectError(res, 400, 'CHALLENGE_NOT_FOUND');
    } finally {
      t.clock.advance(-301);
    }
    expect(await countOf(u.userId)).toBe(1);
  });

  it('a sign-in challenge does not register, and another user’s challenge is refused', async () => {
    const u = await signUp(t.app);
    const { options } = await startSignIn(t, u.jar);
    const device = authenticator();
    const response = device.create({ challenge: options.challenge, rp: { id: 'localhost' }, user: { id: 'eA' } });
    expectError(
      await post(t.app, '/passkey/verify-registration', { response }, { jar: u.jar }),
      400,
      'CHALLENGE_NOT_FOUND',
    );
    // user B presents the challenge cookie A's options set
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const aOptions = (await get(t.app, '/passkey/generate-register-options', { jar: a.jar })).json();
    const jar = b.jar.clone();
    jar.cookies.set(PASSKEY_COOKIE, a.jar.get(PASSKEY_COOKIE)!);
    expectError(
      await post(t.app, '/passkey/verify-registration', { response: device.create(aOptions) }, { jar }),
      401,
      'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
      'You are not allowed to register this passkey',
    );
    expect([await countOf(a.userId), await countOf(b.userId)]).toEqual([0, 0]);
  });

  it('needs a fresh session; never a key, an impersonation session or no session', async () => {
    const u = await signUp(t.app);
    expectError(await get(t.app, '/passkey/generate-register-options'), 401, 'UNAUTHORIZED');
    expectError(
      await post(t.app, '/passkey/verify-registration', {
        response: authenticator().create({ challenge: 'AA', rp: { id: 'localhost' }, user: { id: 'AA' } }),
      }),
      401,
      'UNAUTHORIZED',
    );
    t.clock.advance(t.config.session.freshAgeSec + 1);
    try {
      expectError(await get(t.app, '/passkey/generate-register-options', { jar: u.jar }), 403, 'SESSION_NOT_FRESH');
    } finally {
      t.clock.advance(-(t.config.session.freshAgeSec + 1));
    }
    const k = await createKey(t, { userId: u.userId }, server());
    const withKey = { origin: null, headers: { 'x-api-key': k.key } };
    expectError(await get(t.app, '/passkey/generate-register-options', withKey), 403, 'API_KEY_SESSION_NOT_ALLOWED');
    const admin = await signUpAdmin(t);
    const jar = admin.jar.clone();
    expect((await adminPost(t, 'impersonate-user', { userId: u.userId }, jar)).statusCode).toBe(200);
    expectError(
      await get(t.app, '/passkey/generate-register-options', { jar }),
      401,
      'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
    );
    expect(await countOf(u.userId)).toBe(0);
  });
});

describe('list, rename, delete', () => {
  it('lists the user’s passkeys oldest first, renames and deletes one (count, event, cached user)', async () => {
    const u = await userWithPasskey(t, {}, authenticator(), 'First');
    t.clock.advance(1); // the test clock stands still: the second one is added a second later
    const second = await register(t, u.jar, authenticator(), { name: 'Second' });
    const list = await get(t.app, '/passkey/list-user-passkeys', { jar: u.jar });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { name: string }) => p.name)).toEqual(['First', 'Second']);
    expect(list.json()[0]).toEqual(expect.objectContaining({ id: u.passkeyId, userId: u.userId, counter: 0 }));

    const renamed = await post(t.app, '/passkey/update-passkey', { id: u.passkeyId, name: ' Phone ' }, { jar: u.jar });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().passkey).toMatchObject({ id: u.passkeyId, name: 'Phone' });
    expectError(
      await post(t.app, '/passkey/update-passkey', { id: u.passkeyId, name: '   ' }, { jar: u.jar }),
      400,
      'VALIDATION_ERROR',
    );

    const deleted = await post(t.app, '/passkey/delete-passkey', { id: second.json().id }, { jar: u.jar });
    expect([deleted.statusCode, deleted.json()]).toEqual([200, { status: true }]);
    expect(
      (await get(t.app, '/passkey/list-user-passkeys', { jar: u.jar })).json().map((p: { name: string }) => p.name),
    ).toEqual(['Phone']);
    expect(await countOf(u.userId)).toBe(1);
    expect((await sessionOf(t.app, { jar: u.jar })).user.passkeyCount).toBe(1);
    const [event] = await eventsOf(t, u.userId, 'user.passkey_removed');
    expect(event.details).toMatchObject({ passkeyId: second.json().id, name: 'Second' });
    expectError(
      await post(t.app, '/passkey/delete-passkey', { id: second.json().id }, { jar: u.jar }),
      404,
      'PASSKEY_NOT_FOUND',
    );
  });

  it('someone else’s passkey id answers exactly as an unknown one, and changes nothing', async () => {
    const owner = await userWithPasskey(t, {}, authenticator(), 'Mine');
    const other = await signUp(t.app);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const answers = [];
    for (const id of [owner.passkeyId, unknown, 'not-a-uuid']) {
      answers.push(await post(t.app, '/passkey/update-passkey', { id, name: 'Taken' }, { jar: other.jar }));
      answers.push(await post(t.app, '/passkey/delete-passkey', { id }, { jar: other.jar }));
    }
    for (const res of answers)
      expect([res.statusCode, res.json()]).toEqual([404, { code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' }]);
    const [row] = await t.ctx.sql.query('SELECT name FROM passkeys WHERE id = $1', [owner.passkeyId]);
    expect(row).toEqual({ name: 'Mine' });
    expect(await countOf(owner.userId)).toBe(1);
    expect(await eventsOf(t, owner.userId, 'user.passkey_removed')).toEqual([]);
    expect((await get(t.app, '/passkey/list-user-passkeys', { jar: other.jar })).json()).toEqual([]);
  });

  it('needs a session; a key may list but not rename or delete', async () => {
    const u = await userWithPasskey(t);
    expectError(await get(t.app, '/passkey/list-user-passkeys'), 401, 'UNAUTHORIZED');
    expectError(await post(t.app, '/passkey/update-passkey', { id: u.passkeyId, name: 'x' }), 401, 'UNAUTHORIZED');
    expectError(await post(t.app, '/passkey/delete-passkey', { id: u.passkeyId }), 401, 'UNAUTHORIZED');
    const k = await createKey(t, { userId: u.userId }, server());
    const withKey = { origin: null, headers: { 'x-api-key': k.key } };
    expect((await get(t.app, '/passkey/list-user-passkeys', withKey)).json()).toHaveLength(1);
    expectError(
      await post(t.app, '/passkey/update-passkey', { id: u.passkeyId, name: 'x' }, withKey),
      403,
      'API_KEY_SESSION_NOT_ALLOWED',
    );
    expectError(
      await post(t.app, '/passkey/delete-passkey', { id: u.passkeyId }, withKey),
      403,
      'API_KEY_SESSION_NOT_ALLOWED',
    );
    expect(await passkeysOf(t, u.userId)).toBe(1);
  });

  it('a cross-site POST is refused before it reaches the passkey (origin check)', async () => {
    const u = await userWithPasskey(t);
    expectError(
      await post(t.app, '/passkey/delete-passkey', { id: u.passkeyId }, { jar: u.jar, origin: 'https://evil.example' }),
      403,
      'INVALID_ORIGIN',
    );
    expect(await passkeysOf(t, u.userId)).toBe(1);
  });

  it('deleting the account deletes its passkeys and challenges', async () => {
    const u = await userWithPasskey(t);
    await get(t.app, '/passkey/generate-register-options', { jar: u.jar });
    const res = await post(t.app, '/delete-user', { password: PASSWORD }, { jar: u.jar });
    expect(res.statusCode).toBe(200);
    expect(await passkeysOf(t, u.userId)).toBe(0);
    expect(await t.ctx.sql.query('SELECT 1 FROM passkey_challenges WHERE user_id = $1', [u.userId])).toEqual([]);
  });
});

describe('passkeyCount on the user', () => {
  it('a session cached in Redis by a version without the field is read again from PostgreSQL, not answered short', async () => {
    const u = await userWithPasskey(t);
    const fresh = await sessionOf(t.app, { bearer: u.token }, '?disableCookieCache=true');
    expect(fresh.user.passkeyCount).toBe(1);
    const key = `${t.config.redisPrefix}session:${createHash('sha256').update(u.token).digest('base64url')}`;
    const { passkeyCount: _, ...olderUser } = fresh.user;
    await t.ctx.redis!.set(key, `1${JSON.stringify({ session: fresh.session, user: olderUser })}`, 'EX', 60);
    const answered = await sessionOf(t.app, { bearer: u.token }, '?disableCookieCache=true');
    expect(answered.user.passkeyCount).toBe(1);
  });
});
